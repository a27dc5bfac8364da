// The graph IR as the engine's code spells its include; the types are public (ge/graph.h).
#ifndef GE_SRC_GRAPH_GRAPH_H_
#define GE_SRC_GRAPH_GRAPH_H_
#include "ge/graph.h"
#endif  // GE_SRC_GRAPH_GRAPH_H_
