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
  memory::desc a_md, b_md, bias_md, y_md, scratch_md;
  int64_t row0, rows, col0, cols;  // the block's rectangle of Y
};

}  // namespace

struct DnnlMatMulPlan {
  int64_t k, n;
  std::vector<MmBlock> blocks;
};

namespace {

// The block computing Y[row0 : row0 + rows, col0 : col0 + cols]: B, bias and Y are read with
// their full row strides, so a column block needs no copy.
bool MakeBlock(const DnnlMatMulParams& p, int64_t row0, int64_t rows, int64_t col0, int64_t cols, MmBlock* blk) {
  auto f32 = memory::data_type::f32;
  memory::desc a_md({rows, p.k}, f32, tag::ab);
  memory::desc b_md({p.k, cols}, f32, memory::dims{p.n, 1});
  memory::desc bias_md({1, cols}, f32, memory::dims{p.n, 1});
  memory::desc y_md({rows, cols}, f32, memory::dims{p.n, 1});
  dnnl::post_ops po;
  if (p.has_z) po.append_sum(1.f);
  AppendAct(static_cast<ConvAct>(p.act), p.a0, p.a1, &po);
  dnnl::primitive_attr attr;
  attr.set_post_ops(po);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  try {
    auto d = p.has_bias ? dnnl::matmul::desc(a_md, b_md, bias_md, y_md) : dnnl::matmul::desc(a_md, b_md, y_md);
    dnnl::matmul::primitive_desc pd(d, attr, Engine());
    blk->prim = dnnl::matmul(pd);
    blk->scratch_md = pd.scratchpad_desc();
  } catch (const dnnl::error&) {
    return false;
  }
  blk->a_md = a_md;
  blk->b_md = b_md;
  blk->bias_md = bias_md;
  blk->y_md = y_md;
  blk->row0 = row0;
  blk->rows = rows;
  blk->col0 = col0;
  blk->cols = cols;
  return true;
}

std::unique_ptr<DnnlMatMulPlan> BuildPlan(const DnnlMatMulParams& p, uint32_t max_blocks) {
  ThreadStream();  // primitives plan their thread count at creation: single-threaded
  if (p.rows <= 0 || p.k <= 0 || p.n <= 0) return nullptr;
  auto plan = std::make_unique<DnnlMatMulPlan>();
  plan->k = p.k;
  plan->n = p.n;
  // Blocks of at least ~2 MFLOP, so that a split pays for its hand-off: over rows (8 at least
  // each), or over columns in multiples of 64 for a few rows (a matrix-vector product, bound by
  // reading B: each core streams its own part) and for wide products.
  int64_t flops = 2 * p.rows * p.k * p.n;
  int64_t want = std::clamp<int64_t>(flops / (2 << 20), 1, std::max<uint32_t>(max_blocks, 1));
  int64_t by_rows = std::max<int64_t>(1, std::min<int64_t>(want, p.rows / 8));
  int64_t by_cols = std::max<int64_t>(1, std::min<int64_t>(want, p.n / 64));
  // Columns also when each column block stays wide (>= 128): every block then keeps all rows,
  // brgemm's efficient shape, and B is streamed once in total rather than once per row block.
  const bool cols = (p.rows < 16 && by_cols > by_rows) || (by_cols == want && want > 1 && p.n / want >= 128);
  int64_t nb = cols ? by_cols : by_rows, total = cols ? p.n / 64 : p.rows;
  int64_t per = total / nb, rem = total % nb, at = 0;
  for (int64_t b = 0; b < nb; ++b) {
    int64_t len = per + (b < rem ? 1 : 0);
    MmBlock blk;
    bool ok = cols ? MakeBlock(p, 0, p.rows, at * 64, b + 1 == nb ? p.n - at * 64 : len * 64, &blk)
                   : MakeBlock(p, at, len, 0, p.n, &blk);
    if (!ok) return nullptr;
    plan->blocks.push_back(std::move(blk));
    at += len;
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

void RunDnnlMatMul(const DnnlMatMulPlan* plan, uint32_t block, const float* a, const float* b, const float* bias,
                   const float* z, float* y) {
  const MmBlock& blk = plan->blocks[block];
  const int64_t n = plan->n, off = blk.row0 * n + blk.col0;
  float* yb = y + off;
  if (z != nullptr && z + off != yb)
    for (int64_t r = 0; r < blk.rows; ++r) std::memcpy(yb + r * n, z + off + r * n, blk.cols * sizeof(float));
  BoundArgs& args = BindArgs(&blk, blk.a_md, blk.b_md, bias ? &blk.bias_md : nullptr, blk.y_md, blk.scratch_md);
  args.src->set_data_handle(const_cast<float*>(a + blk.row0 * plan->k));
  args.weights->set_data_handle(const_cast<float*>(b + blk.col0));
  if (bias) args.bias->set_data_handle(const_cast<float*>(bias + blk.col0));
  args.dst->set_data_handle(yb);
  args.scratch->set_data_handle(ThreadScratch(blk.scratch_md.get_size()));
  blk.prim.execute(ThreadStream(), args.args);
}

#else  // no oneDNN: FusedMatMul uses its reference loop.

struct DnnlMatMulPlan {};
const DnnlMatMulPlan* GetDnnlMatMulPlan(const DnnlMatMulParams&, uint32_t) { return nullptr; }
uint32_t DnnlMatMulPlanBlocks(const DnnlMatMulPlan*) { return 0; }
void RunDnnlMatMul(const DnnlMatMulPlan*, uint32_t, const float*, const float*, const float*, const float*, float*) {}

#endif

}  // namespace ge::ops_util
