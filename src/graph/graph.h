// The graph IR as the engine's code spells its include; the types are public (ge/graph.h). The
// engine's code also gets the bridge between the IR's shapes and gert::Shape (graph/tensor.h).
#ifndef GE_SRC_GRAPH_GRAPH_H_
#define GE_SRC_GRAPH_GRAPH_H_
#include "ge/graph.h"
#include "graph/tensor.h"
#endif  // GE_SRC_GRAPH_GRAPH_H_
