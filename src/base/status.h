// Status as the engine's code spells its include; the type is public (ge/status.h).
#ifndef GE_SRC_BASE_STATUS_H_
#define GE_SRC_BASE_STATUS_H_
#include "ge/status.h"
#endif  // GE_SRC_BASE_STATUS_H_
