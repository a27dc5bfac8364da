// AttrValue as the engine's code spells its include; the type is public (ge/attr_value.h).
#ifndef GE_SRC_GRAPH_ATTR_VALUE_H_
#define GE_SRC_GRAPH_ATTR_VALUE_H_
#include "ge/attr_value.h"
#endif  // GE_SRC_GRAPH_ATTR_VALUE_H_
