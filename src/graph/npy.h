// .npy I/O is public: include/ge/npy.h. This forwards for code inside src/.
#ifndef GE_SRC_GRAPH_NPY_H_
#define GE_SRC_GRAPH_NPY_H_

#include "ge/npy.h"

#endif  // GE_SRC_GRAPH_NPY_H_
