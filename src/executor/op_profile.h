// The per-node profile lives in the public API (ge/op_profile.h).
#ifndef GE_SRC_EXECUTOR_OP_PROFILE_H_
#define GE_SRC_EXECUTOR_OP_PROFILE_H_

#include "ge/op_profile.h"

#endif  // GE_SRC_EXECUTOR_OP_PROFILE_H_
