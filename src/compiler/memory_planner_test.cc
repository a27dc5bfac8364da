// Memory planner, checker and stream assigner on tiny graphs: the textual plan before/after.
#include <gtest/gtest.h>

#include "compiler/memory_checker.h"
#include "compiler/memory_planner.h"
#include "compiler/stream_assigner.h"
#include "register/op_def.h"

namespace ge {
namespace {

TensorDesc F32(std::vector<int64_t> dims) { return TensorDesc{DT_FLOAT, FORMAT_ND, Shape(std::move(dims))}; }

StreamAssignment OneStream(size_t n) {
  StreamAssignerInput in;
  in.deps.assign(n, {});
  in.is_task.assign(n, true);
  in.cost.assign(n, 1);
  in.max_streams = 1;
  StreamAssignment s;
  EXPECT_TRUE(AssignStreams(in, &s).ok());
  return s;
}

std::string Plan(const Graph& g, MemoryPlan* plan, StreamAssignment* streams = nullptr) {
  std::vector<NodeId> order;
  EXPECT_TRUE(g.TopologicalOrder(&order).ok());
  PlannerInput in;
  Status st = BuildPlannerInput(g, order, &in);
  EXPECT_TRUE(st.ok()) << st.message();
  StreamAssignment one = OneStream(order.size());
  if (!streams) streams = &one;
  st = PlanMemory(in, *streams, plan);
  EXPECT_TRUE(st.ok()) << st.message();
  st = CheckMemoryPlan(*plan, *streams, &in);
  EXPECT_TRUE(st.ok()) << st.message();
  return plan->ToString(&g);
}

TEST(MemoryPlannerTest, ElementwiseChainRunsInPlace) {
  Graph g;
  ValueId x = g.AddInput("x", F32({4, 4}));
  ValueId a = g.AddValue("a", F32({4, 4})), b = g.AddValue("b", F32({4, 4}));
  g.AddNode("relu", "Relu", {x}, {a});
  g.AddNode("sig", "Sigmoid", {a}, {b});
  g.AddOutput(b);
  MemoryPlan plan;
  EXPECT_EQ(Plan(g, &plan),
            "x -> buf0 @0 (64 B)\n"
            "a -> buf0 @0 (64 B)\n"
            "b -> buf0 @0 (64 B)\n"
            "arena 64 B\n");
  EXPECT_EQ(plan.report.naive_bytes, 192);
  EXPECT_EQ(plan.report.lower_bound_bytes, 64);
}

TEST(MemoryPlannerTest, ReshapeIsAViewAndLiveInputBlocksInPlace) {
  Graph g;
  ValueId x = g.AddInput("x", F32({2, 8}));
  HostTensor shape(DT_INT64, Shape({2}));
  shape.mutable_data_as<int64_t>()[0] = 4;
  shape.mutable_data_as<int64_t>()[1] = 4;
  ValueId s = g.AddConstant("shape", shape);
  ValueId a = g.AddValue("a", F32({2, 8})), r = g.AddValue("r", F32({4, 4}));
  ValueId e = g.AddValue("e", F32({4, 4})), y = g.AddValue("y", F32({4, 4}));
  g.AddNode("conv", "Conv", {x}, {a});  // not in place: a gets its own buffer
  g.AddNode("reshape", "Reshape", {a, s}, {r});
  g.AddNode("exp", "Exp", {r}, {e});     // r is read again by "add": no in place
  g.AddNode("add", "Add", {r, e}, {y});  // r dies here: y takes its buffer
  g.AddOutput(y);
  MemoryPlan plan;
  EXPECT_EQ(Plan(g, &plan),
            "x -> buf0 @0 (64 B)\n"
            "a -> buf1 @64 (64 B)\n"
            "r -> buf1 @64 (64 B)\n"
            "e -> buf2 @0 (64 B)\n"
            "y -> buf1 @64 (64 B)\n"
            "arena 128 B\n");
}

}  // namespace
}  // namespace ge

// Ops registered only for the tests below: the planner knows their memory properties from the
// OpDef alone (no kernel is ever run).
namespace ops {
struct PlannerTestInplace : OpDef {
  explicit PlannerTestInplace(const char* n) : OpDef(n) {
    Input("x").ParamType(REQUIRED);
    Output("y").ParamType(REQUIRED);
    OutputInplace(0, 0);
  }
};
struct PlannerTestView : OpDef {
  explicit PlannerTestView(const char* n) : OpDef(n) {
    Input("x").ParamType(REQUIRED);
    Output("y").ParamType(REQUIRED);
    OutputView(0, 0);
  }
};
struct PlannerTestPlain : OpDef {
  explicit PlannerTestPlain(const char* n) : OpDef(n) {
    Input("x").ParamType(REQUIRED);
    Output("y").ParamType(REQUIRED);
  }
};
// y may overwrite z (input 1) only when "layout" is "NHWC"; the declared default is "NCHW".
struct PlannerTestResidual : OpDef {
  explicit PlannerTestResidual(const char* n) : OpDef(n) {
    Input("x").ParamType(REQUIRED);
    Input("z").ParamType(REQUIRED);
    Output("y").ParamType(REQUIRED);
    Attr("layout").AttrType(OPTIONAL).String("NCHW");
    OutputInplace(0, 1, "layout", "NHWC");
  }
};
OP_ADD(PlannerTestInplace);
OP_ADD(PlannerTestResidual);
OP_ADD(PlannerTestView);
OP_ADD(PlannerTestPlain);
}  // namespace ops

namespace ge {
namespace {

// x -> op -> a -> op -> b, for an op type: the plan tells which property the OpDef declares.
std::string PlanChain(const char* op) {
  Graph g;
  ValueId x = g.AddInput("x", F32({4, 4}));
  ValueId a = g.AddValue("a", F32({4, 4})), b = g.AddValue("b", F32({4, 4}));
  g.AddNode("n1", op, {x}, {a});
  g.AddNode("n2", op, {a}, {b});
  g.AddOutput(b);
  MemoryPlan plan;
  return Plan(g, &plan);
}

TEST(MemoryPlannerTest, RegisteredOpDeclaringInplaceRunsInPlace) {
  EXPECT_EQ(PlanChain("PlannerTestInplace"),
            "x -> buf0 @0 (64 B)\n"
            "a -> buf0 @0 (64 B)\n"
            "b -> buf0 @0 (64 B)\n"
            "arena 64 B\n");
}

TEST(MemoryPlannerTest, RegisteredOpDeclaringViewAliasesItsInput) {
  Graph g;
  ValueId x = g.AddInput("x", F32({4, 4}));
  ValueId a = g.AddValue("a", F32({4, 4}));
  g.AddNode("v", "PlannerTestView", {x}, {a});
  g.AddOutput(a);
  EXPECT_TRUE(IsViewNode(g, g.node(0)));
  EXPECT_FALSE(IsViewNode(g, g.node(g.AddNode("p", "PlannerTestPlain", {x}, {g.AddValue("c", F32({4, 4}))}))));
  EXPECT_EQ(PlanChain("PlannerTestView"),
            "x -> buf0 @0 (64 B)\n"
            "a -> buf0 @0 (64 B)\n"
            "b -> buf0 @0 (64 B)\n"
            "arena 64 B\n");
}

TEST(MemoryPlannerTest, RegisteredOpWithoutPropertiesGetsItsOwnBuffers) {
  std::string plan = PlanChain("PlannerTestPlain");
  EXPECT_NE(plan.find("a -> buf1"), std::string::npos) << plan;
  EXPECT_NE(plan.find("b -> buf"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("a -> buf0"), std::string::npos) << plan;
}

// x, z -> residual op -> y: where y lies says whether the conditional declaration applied.
std::string PlanResidual(const char* layout, bool z_is_x) {
  Graph g;
  ValueId x = g.AddInput("x", F32({4, 4}));
  ValueId z = z_is_x ? x : g.AddInput("z", F32({4, 4}));
  ValueId y = g.AddValue("y", F32({4, 4}));
  AttrMap attrs;
  if (layout != nullptr) attrs["layout"] = std::string(layout);
  g.AddNode("n", "PlannerTestResidual", {x, z}, {y}, attrs);
  g.AddOutput(y);
  MemoryPlan plan;
  return Plan(g, &plan);
}

TEST(MemoryPlannerTest, ConditionalInplaceFollowsTheAttribute) {
  // NHWC: y takes z's buffer (graph inputs x and z are not outputs, so z may be overwritten).
  std::string nhwc = PlanResidual("NHWC", false);
  EXPECT_NE(nhwc.find("y -> buf1"), std::string::npos) << nhwc;
  EXPECT_NE(nhwc.find("z -> buf1"), std::string::npos) << nhwc;
  // NCHW given, or the attribute absent (its default, NCHW): y gets a buffer of its own.
  for (const char* layout : {"NCHW", static_cast<const char*>(nullptr)}) {
    std::string plan = PlanResidual(layout, false);
    EXPECT_NE(plan.find("y -> buf2"), std::string::npos) << plan;
  }
  // z is also x, an input the declaration does not cover (a conv reads X's neighbours): no reuse.
  std::string shared = PlanResidual("NHWC", true);
  EXPECT_EQ(shared.find("y -> buf0"), std::string::npos) << shared;
}

// x(1 KiB) -> y1(256 B) -> y2(1 KiB) -> y3(256 B): the big pair shares offset 0.
TEST(MemoryPlannerTest, GreedyBySizeReusesFreedBuffers) {
  Graph g;
  ValueId x = g.AddInput("x", F32({256}));
  ValueId y1 = g.AddValue("y1", F32({64})), y2 = g.AddValue("y2", F32({256})), y3 = g.AddValue("y3", F32({64}));
  g.AddNode("n1", "Foo", {x}, {y1});
  g.AddNode("n2", "Foo", {y1}, {y2});
  g.AddNode("n3", "Foo", {y2}, {y3});
  g.AddOutput(y3);
  MemoryPlan plan;
  EXPECT_EQ(Plan(g, &plan),
            "x -> buf0 @0 (1024 B)\n"
            "y1 -> buf1 @1024 (256 B)\n"
            "y2 -> buf2 @0 (1024 B)\n"
            "y3 -> buf3 @1024 (256 B)\n"
            "arena 1280 B\n");
  EXPECT_EQ(plan.report.lower_bound_bytes, 1280);
  EXPECT_EQ(plan.report.naive_bytes, 2560);
}

TEST(MemoryCheckerTest, CatchesOverlappingLiveBuffers) {
  Graph g;
  ValueId x = g.AddInput("x", F32({256}));
  ValueId y1 = g.AddValue("y1", F32({64})), y2 = g.AddValue("y2", F32({256}));
  g.AddNode("n1", "Foo", {x}, {y1});
  g.AddNode("n2", "Foo", {y1}, {y2});
  g.AddOutput(y2);
  MemoryPlan plan;
  Plan(g, &plan);
  StreamAssignment s = OneStream(2);
  plan.buffers[plan.value_buffer[y1]].offset = 0;  // on top of x, which n1 still reads
  Status st = CheckMemoryPlan(plan, s);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("overlap"), std::string::npos) << st.message();
  plan.buffers[plan.value_buffer[y1]].offset = 1 << 20;  // outside the arena
  EXPECT_FALSE(CheckMemoryPlan(plan, s).ok());
}

StreamAssignerInput Deps(std::vector<std::vector<int>> deps, int max_streams) {
  StreamAssignerInput in;
  in.is_task.assign(deps.size(), true);
  in.cost.assign(deps.size(), 1);
  in.deps = std::move(deps);
  in.max_streams = max_streams;
  return in;
}

TEST(StreamAssignerTest, MultiStreamDiamondGetsTwoStreamsAndTwoEvents) {
  StreamAssignment s;
  ASSERT_TRUE(AssignStreams(Deps({{}, {0}, {0}, {1, 2}}, 2), &s).ok());
  EXPECT_EQ(s.ToString(), "s0: n0 n1 n3 | s1: n2 ; sync n0->n2 n2->n3");
  EXPECT_EQ(s.num_events, 2);
  EXPECT_TRUE(s.HappensBefore(0, 3));
  EXPECT_TRUE(s.HappensBefore(2, 3));
  EXPECT_FALSE(s.HappensBefore(1, 2));
  EXPECT_FALSE(s.HappensBefore(2, 1));
}

TEST(StreamAssignerTest, MultiStreamDropsEventsImpliedByOthers) {
  // E reads A and D; A -> C -> D already orders A before E, so E needs no event for A.
  StreamAssignment s;
  ASSERT_TRUE(AssignStreams(Deps({{}, {0}, {0}, {2}, {3, 0}}, 2), &s).ok());
  EXPECT_EQ(s.ToString(), "s0: n0 n1 | s1: n2 n3 n4 ; sync n0->n2");
}

TEST(StreamAssignerTest, OneStreamOption) {
  StreamAssignment s;
  ASSERT_TRUE(AssignStreams(Deps({{}, {0}, {0}, {1, 2}}, 1), &s).ok());
  EXPECT_EQ(s.ToString(), "s0: n0 n1 n2 n3");
  EXPECT_EQ(s.num_events, 0);
}

// With two streams, a buffer read on one stream is not reused by the other stream unless an
// event orders them.
TEST(MemoryPlannerTest, MultiStreamReuseWaitsForEveryConsumer) {
  Graph g;
  ValueId x = g.AddInput("x", F32({256}));
  ValueId a = g.AddValue("a", F32({256})), b = g.AddValue("b", F32({256}));
  ValueId c = g.AddValue("c", F32({256})), d = g.AddValue("d", F32({256}));
  g.AddNode("A", "Foo", {x}, {a});
  g.AddNode("B", "Foo", {a}, {b});  // s0
  g.AddNode("C", "Foo", {x}, {c});  // s1: x is read on both streams
  g.AddNode("D", "Foo", {b, c}, {d});
  g.AddOutput(d);
  StreamAssignment s;
  ASSERT_TRUE(AssignStreams(Deps({{}, {0}, {}, {1, 2}}, 2), &s).ok());
  ASSERT_EQ(s.ToString(), "s0: n0 n1 n3 | s1: n2 ; sync n2->n3");
  MemoryPlan plan;
  Plan(g, &plan, &s);
  // b (written on s0 at B) must not take x's place: C on s1 may still be reading x.
  EXPECT_NE(plan.buffers[plan.value_buffer[b]].offset, plan.buffers[plan.value_buffer[x]].offset);
  EXPECT_NE(plan.buffers[plan.value_buffer[b]].offset, plan.buffers[plan.value_buffer[c]].offset);
}

}  // namespace
}  // namespace ge
