// ge::Model is public: include/ge/model.h. This forwards for code inside src/.
#ifndef GE_SRC_API_MODEL_H_
#define GE_SRC_API_MODEL_H_

#include "ge/model.h"
#include "graph/graph.h"

#endif  // GE_SRC_API_MODEL_H_
