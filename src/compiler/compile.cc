// The compile pipeline: graph in, CompiledGraph out.
#include "compiler/compile.h"

#include <cstdlib>

#include "base/trace.h"
#include "compiler/check_supported.h"
#include "compiler/partitioner.h"
#include "compiler/passes/layout_nhwc.h"
#include "compiler/passes/pass_manager.h"
#include "compiler/specialize_shapes.h"
#include "compiler/static_inference.h"
#include "register/op_impl_registry.h"
#include "runtime/device_init.h"

namespace ge {
namespace {

// Constants no node reads (e.g. weights replaced by packed or transposed copies) free their
// bytes before the executors copy what they need.
void ReleaseUnreadConstants(Graph* graph) {
  std::vector<bool> read(graph->num_values(), false);
  for (ValueId v : graph->outputs()) read[v] = true;
  for (size_t n = 0; n < graph->num_nodes(); ++n)
    for (ValueId v : graph->node(static_cast<NodeId>(n)).inputs)
      if (v != kNoValue) read[v] = true;
  for (size_t v = 0; v < graph->num_values(); ++v) {
    Value& val = graph->value(static_cast<ValueId>(v));
    if (val.constant && !read[v]) val.constant->ReleaseBytes();
  }
}

Status Optimize(Graph* graph, const CompileOptions& options, CompiledGraph* out) {
  trace::Step step("optimize");
  out->op_counts_before = CountOps(*graph);
  OptimizeStats opt_stats;
  GE_RETURN_IF_ERROR(OptimizeGraph(graph, options.opt_level, &opt_stats));
  out->optimizer_report = opt_stats.ToString(options.opt_level);
  // The NHWC layout is an -O2 optimization (GE_LAYOUT_NHWC=0 turns it off for comparisons).
  const char* layout_env = std::getenv("GE_LAYOUT_NHWC");
  if (options.opt_level >= 2 && (!layout_env || std::string(layout_env) != "0")) {
    trace::Step layout_step("layout-nhwc");
    LayoutNhwcStats layout;
    GE_RETURN_IF_ERROR(RunLayoutNhwc(graph, &layout));
    if (layout.convs > 0) {
      bool fused = false;
      // Fusions that read the NHWC FusedConvs and ScaleShifts the layout pass made.
      GE_RETURN_IF_ERROR(RunGraphPass("conv-input-scale-fusion", graph, &fused));
      GE_RETURN_IF_ERROR(RunGraphPass("concat-scale-shift-fusion", graph, &fused));
      const char* dw_env = std::getenv("GE_CONV_DW_FUSION");  // opt-in: see conv_depthwise_fusion.h
      if (dw_env && std::string(dw_env) == "1" &&
          gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry()->GetOpImpl("FusedConvDw") != nullptr)
        GE_RETURN_IF_ERROR(RunGraphPass("conv-depthwise-fusion", graph, &fused));  // inverted residual blocks
      const char* row_means_env = std::getenv("GE_CONV_ROW_MEANS");                // =0: off, for comparisons
      if (!row_means_env || std::string(row_means_env) != "0")
        GE_RETURN_IF_ERROR(RunGraphPass("conv-row-mean-fusion", graph, &fused));  // after: it renames FusedConvs
      // The shape chains of a dynamic batch's channel shuffles (Shape -> Gather -> Concat), whose
      // Reshapes the layout pass gave constant NHWC targets, and their NCHW conversions are dead.
      GE_RETURN_IF_ERROR(RunGraphPass("dead-code-elimination", graph, &fused));
      trace::Step infer_step("static inference");
      GE_RETURN_IF_ERROR(RunStaticInference(graph));
    }
  }
  return Status::Ok();
}

// No sink-placed node: one host segment over the graph itself (no copy).
Status HostOnly(const std::shared_ptr<Graph>& graph, const std::vector<Placement>& placement, CompiledGraph* out) {
  trace::Step step("host plan");
  CompiledSegment seg;
  GE_RETURN_IF_ERROR(graph->TopologicalOrder(&seg.nodes));
  seg.inputs = graph->inputs();
  seg.outputs = graph->outputs();
  seg.graph = graph;
  auto plan = std::make_shared<HostPlan>();
  GE_RETURN_IF_ERROR(BuildHostPlan(*graph, &placement, plan.get()));
  seg.host_plan = std::move(plan);
  out->segments.push_back(std::move(seg));
  out->whole_graph = true;
  return Status::Ok();
}

Status Segments(const Graph& graph, const std::vector<Placement>& placement, const CompileOptions& options,
                CompiledGraph* out) {
  std::vector<GraphSegment> parts;
  {
    trace::Step step("partition");
    GE_RETURN_IF_ERROR(PartitionGraph(graph, placement, &parts));
  }
  SinkCompileOptions sopt;
  sopt.max_streams = options.max_streams;  // 0: the default bound and gain rule
  GE_RETURN_IF_ERROR(EnsureDevice(&sopt.core_num));
  for (GraphSegment& p : parts) {
    CompiledSegment seg;
    seg.sink = p.sink;
    seg.nodes = std::move(p.nodes);
    seg.inputs = std::move(p.inputs);
    seg.outputs = std::move(p.outputs);
    seg.graph = std::move(p.graph);
    if (seg.sink) {
      trace::Step step("task generation");
      auto program = std::make_shared<SinkProgram>();
      GE_RETURN_IF_ERROR(GenerateSinkProgram(*seg.graph, sopt, program.get()));
      seg.program = std::move(program);
    } else {
      trace::Step step("host plan");
      std::vector<Placement> sub;
      for (NodeId n : seg.nodes) sub.push_back(placement[n]);
      auto plan = std::make_shared<HostPlan>();
      GE_RETURN_IF_ERROR(BuildHostPlan(*seg.graph, &sub, plan.get()));
      seg.host_plan = std::move(plan);
    }
    out->segments.push_back(std::move(seg));
  }
  // The partitioner keeps the graph's own I/O for a single segment.
  out->whole_graph = out->segments.size() == 1 && out->segments[0].inputs == graph.inputs() &&
                     out->segments[0].outputs == graph.outputs();
  return Status::Ok();
}

}  // namespace

Status Compile(std::shared_ptr<Graph> graph, const CompileOptions& options, std::unique_ptr<CompiledGraph>* out) {
  if (options.mode != "auto" && options.mode != "host" && options.mode != "sink")
    return InvalidArgument("unknown mode '{}' (expected auto, sink or host)", options.mode);
  auto cg = std::make_unique<CompiledGraph>();
  cg->graph = graph;
  {
    trace::Step step("specialize shapes");
    GE_RETURN_IF_ERROR(SpecializeInputShapes(options.input_shapes, graph.get()));
  }
  {
    trace::Step step("verify");
    GE_RETURN_IF_ERROR(graph->Verify());
  }
  {
    trace::Step step("check supported");
    GE_RETURN_IF_ERROR(CheckSupported(*graph));
  }
  GE_RETURN_IF_ERROR(Optimize(graph.get(), options, cg.get()));
  ReleaseUnreadConstants(graph.get());
  std::vector<Placement> placement;
  {
    trace::Step step("placement");
    GE_RETURN_IF_ERROR(DecidePlacement(*graph, options, &placement, &cg->placement_reason));
    for (Placement p : placement) cg->placement.push_back(PlacementName(p));
  }
  bool any_sink = false;
  for (Placement p : placement) any_sink |= p == Placement::kSink;
  if (any_sink)
    GE_RETURN_IF_ERROR(Segments(*graph, placement, options, cg.get()));
  else
    GE_RETURN_IF_ERROR(HostOnly(graph, placement, cg.get()));
  *out = std::move(cg);
  return Status::Ok();
}

}  // namespace ge
