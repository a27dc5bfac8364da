// The pass manager: runs the graph optimizer at a level (the levels and their passes are
// described with the public API, ge/graph_passes.h). Passes interleave with static inference:
// the fusions need shapes and constants, and a round that changed the graph is followed by
// inference again (new constants fold, new nodes get shapes), until nothing changes.
// GE_LOG_LEVEL=debug logs every rewrite.
#ifndef GE_SRC_COMPILER_PASSES_PASS_MANAGER_H_
#define GE_SRC_COMPILER_PASSES_PASS_MANAGER_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/passes/pass.h"
#include "compiler/static_inference.h"
#include "ge/graph_passes.h"

namespace ge {

// kMaxOptLevel, OptimizeStats and OptimizeGraph are public (ge/graph_passes.h).

class PassManager {
 public:
  // Fails for a level outside 0..kMaxOptLevel.
  static Status Create(int opt_level, std::unique_ptr<PassManager>* out);
  // The pass of that name ("conv-bn-folding"), whatever the level.
  // Fails for an unknown name, listing the known ones, or a fused operator not registered.
  static Status MakePass(const std::string& name, std::unique_ptr<GraphPass>* out);
  // The passes of this level, in the order each round runs them.
  const std::vector<std::unique_ptr<GraphPass>>& passes() const { return passes_; }
  // Static inference, then rounds of passes + inference until a round changes nothing.
  Status Run(Graph* graph, OptimizeStats* stats = nullptr) const;

 private:
  int level_ = 0;
  std::vector<std::unique_ptr<GraphPass>> passes_;
};

}  // namespace ge

#endif  // GE_SRC_COMPILER_PASSES_PASS_MANAGER_H_
