// The ACL umbrella header (Ascend's acl/acl.h): what an inference application includes. aclInit
// and aclFinalize are declared in acl_rt.h; aclFloat16 and its conversions in acl_base.h.
#ifndef GE_INCLUDE_ACL_ACL_H_
#define GE_INCLUDE_ACL_ACL_H_

#include "acl/acl_base.h"
#include "acl/acl_mdl.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 0
#define ACL_PATCH_VERSION 0

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion);

#ifdef __cplusplus
}
#endif

#endif  // GE_INCLUDE_ACL_ACL_H_
