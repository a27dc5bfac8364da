// The activation that reads a fused producer's output (conv-activation-fusion, matmul-fusion):
// one node of Relu, LeakyRelu, HardSigmoid, Clip (constant bounds), Sigmoid, Tanh, HardSwish, or
// the two-node SiLU Mul(v, Sigmoid(v)) ("Swish"); a Relu followed by a Clip (how PyTorch exports
// relu6) as one Clip. Names and params are what the fused kernels' `activation` and
// `activation_params` attributes take (ops/dnnl_common.h: ParseActivation).
#ifndef GE_SRC_COMPILER_PASSES_ACTIVATION_MATCH_H_
#define GE_SRC_COMPILER_PASSES_ACTIVATION_MATCH_H_

#include <string>
#include <utility>
#include <vector>

#include "graph/graph.h"

namespace ge {

struct Activation {  // what replaces `nodes`: the producer with activation `name`
  std::string name;
  std::vector<float> params;
  std::vector<NodeId> nodes;  // the nodes it replaces
  ValueId output = kNoValue;
};

// The activation reading v, if any: v must not be a graph output, and (but for SiLU's two readers)
// the activation must be v's only reader. `readers` is Graph::Consumers().
bool MatchActivation(const Graph& g, ValueId v, const std::vector<std::vector<std::pair<NodeId, int>>>& readers,
                     const std::vector<bool>& is_output, Activation* act);

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_ACTIVATION_MATCH_H_
