// Shape as the engine's code spells its include; the type is public (ge/shape.h).
#ifndef GE_SRC_BASE_SHAPE_H_
#define GE_SRC_BASE_SHAPE_H_
#include "ge/shape.h"
#endif  // GE_SRC_BASE_SHAPE_H_
