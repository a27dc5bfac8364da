// The hook through which the single-op API layer (src/opapi) supplies generated fallback
// functions: register sits below opapi, so opapi installs the generator at load time.
#ifndef GE_SRC_REGISTER_FALLBACK_HOOK_H_
#define GE_SRC_REGISTER_FALLBACK_HOOK_H_

#include "register/op_impl_registry.h"

namespace ge {
// Returns the op-execute function to use as the generated fallback of `op_type`.
using FallbackGenerator = gert::OpExecuteFunc (*)(const char* op_type);
void SetFallbackGenerator(FallbackGenerator g);
FallbackGenerator GetFallbackGenerator();
// The op-execute function of `op_type`, generating it now when its OpDef enables fallback and
// none is set yet (OP_ADD may have run before the generator was installed). Null if none.
gert::OpExecuteFunc ResolveFallback(const char* op_type);
}  // namespace ge

#endif  // GE_SRC_REGISTER_FALLBACK_HOOK_H_
