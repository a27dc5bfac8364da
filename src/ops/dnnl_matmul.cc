#include "ops/dnnl_matmul.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#ifdef GE_HAVE_DNNL
#include "ops/dnnl_common.h"
#endif

namespace ge::ops_util {

#ifdef GE_HAVE_DNNL
namespace {
using dnnl::memory;
using tag = memory::format_tag;

struct MmBlock {
  dnnl::matmul prim;
  memory::desc a_md, y_md, scratch_md;
  int64_t row0, rows;
};

}  // namespace

struct DnnlMatMulPlan {
  memory::desc b_md, bias_md;
  int64_t k, n;
  std::vector<MmBlock> blocks;
};

namespace {

bool MakeBlock(const DnnlMatMulParams& p, int64_t row0, int64_t rows, const DnnlMatMulPlan& plan, MmBlock* blk) {
  auto f32 = memory::data_type::f32;
  memory::desc a_md({rows, p.k}, f32, tag::ab), y_md({rows, p.n}, f32, tag::ab);
  dnnl::post_ops po;
  if (p.has_z) po.append_sum(1.f);
  AppendAct(static_cast<ConvAct>(p.act), p.a0, p.a1, &po);
  dnnl::primitive_attr attr;
  attr.set_post_ops(po);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  try {
    auto d = p.has_bias ? dnnl::matmul::desc(a_md, plan.b_md, plan.bias_md, y_md)
                        : dnnl::matmul::desc(a_md, plan.b_md, y_md);
    dnnl::matmul::primitive_desc pd(d, attr, Engine());
    blk->prim = dnnl::matmul(pd);
    blk->a_md = a_md;
    blk->y_md = y_md;
    blk->scratch_md = pd.scratchpad_desc();
  } catch (const dnnl::error&) {
    return false;
  }
  blk->row0 = row0;
  blk->rows = rows;
  return true;
}

std::unique_ptr<DnnlMatMulPlan> BuildPlan(const DnnlMatMulParams& p, uint32_t max_blocks) {
  ThreadStream();  // primitives plan their thread count at creation: single-threaded
  if (p.rows <= 0 || p.k <= 0 || p.n <= 0) return nullptr;
  auto plan = std::make_unique<DnnlMatMulPlan>();
  plan->b_md = memory::desc({p.k, p.n}, memory::data_type::f32, tag::ab);
  plan->bias_md = memory::desc({1, p.n}, memory::data_type::f32, tag::ab);
  plan->k = p.k;
  plan->n = p.n;
  // Blocks of at least ~2 MFLOP and 8 rows, so that a split pays for its hand-off.
  int64_t flops = 2 * p.rows * p.k * p.n;
  int64_t nb = std::clamp<int64_t>(flops / (2 << 20), 1, std::max<uint32_t>(max_blocks, 1));
  nb = std::max<int64_t>(1, std::min<int64_t>(nb, p.rows / 8));
  int64_t per = p.rows / nb, rem = p.rows % nb, row = 0;
  for (int64_t b = 0; b < nb; ++b) {
    int64_t rows = per + (b < rem ? 1 : 0);
    MmBlock blk;
    if (!MakeBlock(p, row, rows, *plan, &blk)) return nullptr;
    plan->blocks.push_back(std::move(blk));
    row += rows;
  }
  return plan;
}

std::mutex g_mu;
std::unordered_map<std::string, std::unique_ptr<DnnlMatMulPlan>> g_plans;

std::string Key(const DnnlMatMulParams& p, uint32_t max_blocks) {
  const int64_t ints[] = {p.rows, p.k, p.n, p.act, p.has_bias, p.has_z, max_blocks};
  const float floats[] = {p.a0, p.a1};
  std::string k(reinterpret_cast<const char*>(ints), sizeof(ints));
  k.append(reinterpret_cast<const char*>(floats), sizeof(floats));
  return k;
}

}  // namespace

const DnnlMatMulPlan* GetDnnlMatMulPlan(const DnnlMatMulParams& p, uint32_t max_blocks) {
  std::string key = Key(p, max_blocks);
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_plans.find(key);
  if (it != g_plans.end()) return it->second.get();
  auto plan = BuildPlan(p, max_blocks);
  const DnnlMatMulPlan* raw = plan.get();
  g_plans.emplace(std::move(key), std::move(plan));
  return raw;
}

uint32_t DnnlMatMulPlanBlocks(const DnnlMatMulPlan* plan) { return static_cast<uint32_t>(plan->blocks.size()); }

namespace {
// A block's execution arguments, made once per thread and rebound to each run's pointers.
struct BoundArgs {
  std::unordered_map<int, memory> args;
  memory *src, *weights, *bias, *dst, *scratch;
};

BoundArgs& Bind(const DnnlMatMulPlan* plan, const MmBlock& b, bool has_bias) {
  thread_local std::unordered_map<const MmBlock*, std::unique_ptr<BoundArgs>> bound;
  auto& slot = bound[&b];
  if (!slot || (slot->bias != nullptr) != has_bias) {
    slot = std::make_unique<BoundArgs>();
    auto& eng = Engine();
    auto add = [&](int arg, const memory::desc& md) {
      return &slot->args.emplace(arg, memory(md, eng, nullptr)).first->second;
    };
    slot->src = add(DNNL_ARG_SRC, b.a_md);
    slot->weights = add(DNNL_ARG_WEIGHTS, plan->b_md);
    slot->bias = has_bias ? add(DNNL_ARG_BIAS, plan->bias_md) : nullptr;
    slot->dst = add(DNNL_ARG_DST, b.y_md);
    slot->scratch = add(DNNL_ARG_SCRATCHPAD, b.scratch_md);
  }
  return *slot;
}
}  // namespace

void RunDnnlMatMul(const DnnlMatMulPlan* plan, uint32_t block, const float* a, const float* b, const float* bias,
                   const float* z, float* y) {
  const MmBlock& blk = plan->blocks[block];
  const int64_t n = plan->n;
  float* yb = y + blk.row0 * n;
  if (z != nullptr && z + blk.row0 * n != yb) std::memcpy(yb, z + blk.row0 * n, blk.rows * n * sizeof(float));
  thread_local std::vector<uint8_t> scratch;
  size_t need = blk.scratch_md.get_size();
  if (scratch.size() < need) scratch.resize(need);
  BoundArgs& args = Bind(plan, blk, bias != nullptr);
  args.src->set_data_handle(const_cast<float*>(a + blk.row0 * plan->k));
  args.weights->set_data_handle(const_cast<float*>(b));
  if (bias) args.bias->set_data_handle(const_cast<float*>(bias));
  args.dst->set_data_handle(yb);
  args.scratch->set_data_handle(scratch.data());
  blk.prim.execute(ThreadStream(), args.args);
}

#else  // no oneDNN: FusedMatMul uses its reference loop.

struct DnnlMatMulPlan {};
const DnnlMatMulPlan* GetDnnlMatMulPlan(const DnnlMatMulParams&, uint32_t) { return nullptr; }
uint32_t DnnlMatMulPlanBlocks(const DnnlMatMulPlan*) { return 0; }
void RunDnnlMatMul(const DnnlMatMulPlan*, uint32_t, const float*, const float*, const float*, const float*, float*) {}

#endif

}  // namespace ge::ops_util
