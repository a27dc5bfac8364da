#include "ops/dnnl_matmul.h"

#include "base/checked_math.h"
#include "kernels/block_range.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#ifdef GE_HAVE_DNNL
#include "base/log.h"
#include "ops/dnnl_common.h"
#include "ops/vec_math.h"
#endif
#if defined(__AVX512F__)
#include <immintrin.h>
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
  int64_t b_offset;                // floats from B's start to the block's part
  bool staged;                     // Y's columns go through a contiguous buffer (see MakeBlock)
  bool own_gelu;                   // GELU applied by GE after the primitive (OwnGelu)
  bool own_gemv;                   // GE's matrix-vector product (OwnGemv), no primitive
};

// The packed layout of a [k, n] B: what brgemm picks for it (tag any) on a canonical 64-row
// product, so that the layout depends on k and n only. col_unit > 0 when the layout stores
// column blocks of col_unit one after the other (BA16a64b on AVX-512): a column range starting
// at a multiple of col_unit is then one contiguous part, in the same layout.
struct PackedLayout {
  dnnl_memory_desc_t md{};
  int64_t col_unit = 0;
  int64_t col_stride = 0;  // floats per column block
  // Column blocks of 64 whose elements lie row after row (inner blocks 16a64b: element (r, c)
  // of a block at r * 64 + c, r < padded rows): what OwnGemv reads.
  bool panels64 = false;
};

std::mutex g_layout_mu;
std::map<std::pair<int64_t, int64_t>, std::unique_ptr<PackedLayout>> g_layouts;

const PackedLayout* GetPackedLayout(int64_t k, int64_t n) {
  // A weight matrix of at most 2^40 elements (a mutated .gem's weights_shape asked for 2^60 x 64,
  // and the layout checks below overflowed): anything larger has no packed layout.
  int64_t elems = 0;
  if (k <= 0 || n <= 0 || !CheckedMul<int64_t>(k, n, &elems) || elems > (int64_t{1} << 40)) return nullptr;
  std::lock_guard<std::mutex> lock(g_layout_mu);
  auto& slot = g_layouts[{k, n}];
  if (slot) return slot.get();
  auto f32 = memory::data_type::f32;
  try {
    dnnl::matmul::primitive_desc pd(
        dnnl::matmul::desc(memory::desc({64, k}, f32, tag::ab), memory::desc({k, n}, f32, tag::any),
                           memory::desc({64, n}, f32, tag::ab)),
        Engine());
    auto layout = std::make_unique<PackedLayout>();
    layout->md = pd.weights_desc().data;
    const auto& md = layout->md;
    if (md.format_kind == dnnl_blocked) {
      const auto& blk = md.format_desc.blocking;
      int64_t unit = 1, k_unit = 1;
      for (int i = 0; i < blk.inner_nblks; ++i) (blk.inner_idxs[i] == 1 ? unit : k_unit) *= blk.inner_blks[i];
      const int64_t col_blocks = md.padded_dims[1] / unit;
      // The column blocks are outermost: their stride times their count is the whole buffer,
      // and the row blocks of one column block fill its stride.
      if (md.padded_dims[1] % unit == 0 && md.padded_dims[0] % k_unit == 0 &&
          blk.strides[1] * col_blocks == md.padded_dims[0] * md.padded_dims[1] &&
          blk.strides[0] * (md.padded_dims[0] / k_unit) == blk.strides[1]) {
        layout->col_unit = unit;
        layout->col_stride = blk.strides[1];
        layout->panels64 = unit == 64 && blk.inner_nblks == 2 && blk.inner_idxs[0] == 0 && blk.inner_idxs[1] == 1 &&
                           blk.inner_blks[1] == 64 && blk.strides[0] == k_unit * 64;
      }
    }
    slot = std::move(layout);
  } catch (const dnnl::error&) {
    return nullptr;
  }
  return slot.get();
}

// The packed layout's desc for columns [0, cols) of a column block (cols <= n).
memory::desc PackedColumns(const PackedLayout& l, int64_t cols) {
  dnnl_memory_desc_t md = l.md;
  md.dims[1] = cols;
  md.padded_dims[1] = (cols + l.col_unit - 1) / l.col_unit * l.col_unit;
  return memory::desc(md);
}

}  // namespace

struct DnnlMatMulPlan {
  int64_t k, n;
  std::vector<MmBlock> blocks;
  // For OwnGemv blocks: the epilogue's activation and the floats per 64-column panel of B.
  ConvAct act = ConvAct::kNone;
  float a0 = 0, a1 = 0;
  int64_t panel_stride = 0;
};

namespace {

// GELU applied by GE to each block's output (VecGelu) rather than as oneDNN's gelu_erf post-op.
// GE_MATMUL_OWN_GELU=0 turns it off.
bool OwnGelu(const DnnlMatMulParams& p) {
  static const bool enabled = [] {
    const char* e = std::getenv("GE_MATMUL_OWN_GELU");
    return e == nullptr || std::string(e) != "0";
  }();
  return enabled && static_cast<ConvAct>(p.act) == ConvAct::kGelu;
}

// The block computing Y[row0 : row0 + rows, col0 : col0 + cols]: B, bias and Y are read with
// their full row strides, so a column block needs no copy.
bool MakeBlock(const DnnlMatMulParams& p, const PackedLayout* packed, int64_t row0, int64_t rows, int64_t col0,
               int64_t cols, MmBlock* blk) {
  auto f32 = memory::data_type::f32;
  memory::desc a_md({rows, p.k}, f32, tag::ab);
  memory::desc b_md({p.k, cols}, f32, memory::dims{p.n, 1});
  blk->b_offset = col0;
  blk->staged = false;
  blk->own_gemv = false;
  if (packed != nullptr) {
    if (cols == p.n) {
      b_md = memory::desc(packed->md);
      blk->b_offset = 0;
    } else {
      // brgemm takes a blocked B only with a dense Y: a column block of a packed B writes a
      // contiguous [rows, cols] buffer that is copied into Y's columns (Z copied in first).
      b_md = PackedColumns(*packed, cols);
      blk->b_offset = col0 / packed->col_unit * packed->col_stride;
      blk->staged = true;
    }
  }
  memory::desc bias_md({1, cols}, f32, memory::dims{p.n, 1});
  memory::desc y_md({rows, cols}, f32, memory::dims{packed != nullptr && cols != p.n ? cols : p.n, 1});
  dnnl::post_ops po;
  if (p.has_z) po.append_sum(1.f);
  blk->own_gelu = OwnGelu(p);
  if (!blk->own_gelu) AppendAct(static_cast<ConvAct>(p.act), p.a0, p.a1, &po);
  dnnl::primitive_attr attr;
  attr.set_post_ops(po);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  try {
    auto d = p.has_bias ? dnnl::matmul::desc(a_md, b_md, bias_md, y_md) : dnnl::matmul::desc(a_md, b_md, y_md);
    dnnl::matmul::primitive_desc pd(d, attr, Engine());
    // oneDNN's reference implementation accepts any layout at a hundredth of the speed (a
    // column block of a packed B whose layout brgemm would not pick for that width): refuse it.
    if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0) return false;
    blk->prim = dnnl::matmul(pd);
    blk->scratch_md = pd.scratchpad_desc();
    GELOGD("oneDNN matmul block [{}, {}] x [{}, {}] act {}: {}", rows, p.k, p.k, cols, p.act, pd.impl_info_str());
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

// GE's own matrix-vector product over a packed B of 64-column panels (y = x B for one row of x),
// used for single-row products: they are bound by reading B from memory, and brgemm reads B one
// panel after the other, a single sequential stream (11.8 GB/s from memory on one core here).
// Reading four panels side by side keeps four streams in flight: 16 GB/s, the 1280 x 1000
// classifier of mobilenet_v2 and efficientnet_b0 442 -> 324 us with B cold (one core).
// GE_OWN_GEMV=0 turns it off.
bool OwnGemvEnabled() {
  static const bool enabled = [] {
    const char* e = std::getenv("GE_OWN_GEMV");
    return e == nullptr || std::string(e) != "0";
  }();
#if defined(__AVX512F__)
  return enabled;
#else
  return false;
#endif
}

#if defined(__AVX512F__)
// Columns [c0, c_end) of y from S panels starting at `panels` (each panel_stride floats, [k, 64]
// row after row); bias and z (either may be null) indexed by column, as y; z may alias y.
template <int S>
void GemvPanels(int64_t k, const float* x, const float* panels, int64_t panel_stride, int64_t c0, int64_t c_end,
                const DnnlMatMulPlan& plan, const float* bias, const float* z, float* y) {
  __m512 acc[S][4];
#pragma GCC unroll 4
  for (int s = 0; s < S; ++s)
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) acc[s][j] = _mm512_setzero_ps();
  for (int64_t r = 0; r < k; ++r) {
    const __m512 xv = _mm512_set1_ps(x[r]);
#pragma GCC unroll 4
    for (int s = 0; s < S; ++s) {
      const float* b = panels + s * panel_stride + r * 64;
#pragma GCC unroll 4
      for (int j = 0; j < 4; ++j) acc[s][j] = _mm512_fmadd_ps(xv, _mm512_loadu_ps(b + 16 * j), acc[s][j]);
    }
  }
  alignas(64) float out[S * 64];
#pragma GCC unroll 4
  for (int s = 0; s < S; ++s)
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) _mm512_store_ps(out + s * 64 + 16 * j, acc[s][j]);
  const int64_t end = std::min<int64_t>(c_end, c0 + S * 64);
  for (int64_t c = c0; c < end; ++c) {
    float v = out[c - c0];
    if (bias != nullptr) v += bias[c];
    if (z != nullptr) v += z[c];
    y[c] = ApplyConvAct(plan.act, plan.a0, plan.a1, v);
  }
}

void OwnGemv(const DnnlMatMulPlan& plan, const MmBlock& blk, const float* x, const float* b, const float* bias,
             const float* z, float* y) {
  const int64_t end = blk.col0 + blk.cols;
  int64_t c = blk.col0;  // a multiple of 64
  for (; c + 3 * 64 < end; c += 4 * 64)
    GemvPanels<4>(plan.k, x, b + c / 64 * plan.panel_stride, plan.panel_stride, c, end, plan, bias, z, y);
  for (; c < end; c += 64) GemvPanels<1>(plan.k, x, b + c / 64 * plan.panel_stride, 0, c, end, plan, bias, z, y);
}
#else
void OwnGemv(const DnnlMatMulPlan&, const MmBlock&, const float*, const float*, const float*, const float*, float*) {}
#endif

std::unique_ptr<DnnlMatMulPlan> BuildPlan(const DnnlMatMulParams& p, uint32_t max_blocks) {
  ThreadStream();  // primitives plan their thread count at creation: single-threaded
  if (p.rows <= 0 || p.k <= 0 || p.n <= 0) return nullptr;
  const PackedLayout* packed = p.packed_b ? GetPackedLayout(p.k, p.n) : nullptr;
  if (p.packed_b && packed == nullptr) return nullptr;
  // Column blocks start at multiples of 64 (and of the packed layout's column unit).
  const int64_t unit = packed == nullptr ? 64 : packed->col_unit == 0 ? 0 : std::lcm<int64_t>(64, packed->col_unit);
  auto plan = std::make_unique<DnnlMatMulPlan>();
  plan->k = p.k;
  plan->n = p.n;
  // Blocks of at least ~2 MFLOP, so that a split pays for its hand-off: over rows (8 at least
  // each), or over columns in multiples of 64 for a few rows (a matrix-vector product, bound by
  // reading B: each core streams its own part) and for wide products.
  // A product of few rows is bound by reading B (one float of B costs ~30 flops' time at this
  // machine's bandwidth per core), not by its flops: count that as its work.
  int64_t work = std::max<int64_t>(2 * p.rows * p.k * p.n, 32 * p.k * p.n);
  int64_t want = SplitBlocks(work, 2 << 20, max_blocks);
  int64_t by_rows = std::max<int64_t>(1, std::min<int64_t>(want, p.rows / 8));
  int64_t by_cols = unit == 0 ? 1 : std::max<int64_t>(1, std::min<int64_t>(want, p.n / unit));
  // Columns also when each column block stays wide (>= 128): every block then keeps all rows,
  // brgemm's efficient shape, and B is streamed once in total rather than once per row block.
  const bool cols = p.full_rows == 0 && unit > 0 &&
                    ((p.rows < 16 && by_cols > by_rows) || (by_cols == want && want > 1 && p.n / want >= 128));
  // Column blocks where chosen and brgemm takes them (it may want another packed layout for a
  // narrow block); else row blocks.
  auto build = [&](bool by_columns) {
    plan->blocks.clear();
    const int64_t nb = by_columns ? by_cols : by_rows, total = by_columns ? p.n / unit : p.rows;
    for (int64_t b = 0; b < nb; ++b) {
      int64_t at, end;
      kernels::BlockRange(total, static_cast<uint32_t>(b), static_cast<uint32_t>(nb), &at, &end);
      const int64_t len = end - at;
      MmBlock blk;
      const bool ok = by_columns
                          ? MakeBlock(p, packed, 0, p.rows, at * unit, b + 1 == nb ? p.n - at * unit : len * unit, &blk)
                          : MakeBlock(p, packed, at, len, 0, p.n, &blk);
      if (!ok) return false;
      plan->blocks.push_back(std::move(blk));
    }
    return true;
  };
  if (p.rows == 1 && packed != nullptr && packed->panels64 && OwnGemvEnabled()) {
    plan->act = static_cast<ConvAct>(p.act);
    plan->a0 = p.a0;
    plan->a1 = p.a1;
    plan->panel_stride = packed->col_stride;
    const int64_t nb = p.full_rows ? 1 : by_cols, panels = (p.n + 63) / 64;
    for (int64_t b = 0; b < nb; ++b) {
      int64_t at, end;
      kernels::BlockRange(panels, static_cast<uint32_t>(b), static_cast<uint32_t>(nb), &at, &end);
      MmBlock blk;
      blk.row0 = 0;
      blk.rows = 1;
      blk.col0 = at * 64;
      blk.cols = std::min(end * 64, p.n) - blk.col0;
      blk.b_offset = 0;
      blk.staged = blk.own_gelu = false;
      blk.own_gemv = true;
      plan->blocks.push_back(std::move(blk));
    }
    GELOGD("GE matrix-vector product [1, {}] x [{}, {}] act {}: {} column blocks", p.k, p.k, p.n, p.act, nb);
    return plan;
  }
  if ((cols && build(true)) || build(false)) return plan;
  return nullptr;
}

std::mutex g_mu;
std::unordered_map<std::string, std::unique_ptr<DnnlMatMulPlan>> g_plans;

std::string Key(const DnnlMatMulParams& p, uint32_t max_blocks) {
  const int64_t ints[] = {p.rows, p.k, p.n, p.act, p.has_bias, p.has_z, p.packed_b, p.full_rows, max_blocks};
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

void DnnlMatMulBlockRows(const DnnlMatMulPlan* plan, uint32_t block, int64_t* row0, int64_t* rows) {
  *row0 = plan->blocks[block].row0;
  *rows = plan->blocks[block].rows;
}

void RunDnnlMatMul(const DnnlMatMulPlan* plan, uint32_t block, const float* a, const float* b, const float* bias,
                   const float* z, float* y) {
  const MmBlock& blk = plan->blocks[block];
  if (blk.own_gemv) return OwnGemv(*plan, blk, a, b, bias, z, y);
  const int64_t n = plan->n, off = blk.row0 * n + blk.col0;
  float* yb = y + off;
  thread_local std::vector<float> staging;
  if (blk.staged) {
    staging.resize(static_cast<size_t>(blk.rows * blk.cols));
    if (z != nullptr)
      for (int64_t r = 0; r < blk.rows; ++r)
        std::memcpy(staging.data() + r * blk.cols, z + off + r * n, blk.cols * sizeof(float));
  } else if (z != nullptr && z + off != yb) {
    for (int64_t r = 0; r < blk.rows; ++r) std::memcpy(yb + r * n, z + off + r * n, blk.cols * sizeof(float));
  }
  BoundArgs& args = BindArgs(&blk, blk.a_md, blk.b_md, bias ? &blk.bias_md : nullptr, blk.y_md, blk.scratch_md);
  args.src->set_data_handle(const_cast<float*>(a + blk.row0 * plan->k));
  args.weights->set_data_handle(const_cast<float*>(b + blk.b_offset));
  if (bias) args.bias->set_data_handle(const_cast<float*>(bias + blk.col0));
  args.dst->set_data_handle(blk.staged ? staging.data() : yb);
  args.scratch->set_data_handle(ThreadScratch(blk.scratch_md.get_size()));
  blk.prim.execute(ThreadStream(), args.args);
  if (blk.own_gelu) {
    if (blk.staged || blk.cols == n) {
      VecGelu(blk.staged ? staging.data() : yb, blk.staged ? staging.data() : yb, blk.rows * blk.cols);
    } else {
      for (int64_t r = 0; r < blk.rows; ++r) VecGelu(yb + r * n, yb + r * n, blk.cols);
    }
  }
  if (blk.staged)
    for (int64_t r = 0; r < blk.rows; ++r)
      std::memcpy(yb + r * n, staging.data() + r * blk.cols, blk.cols * sizeof(float));
}

size_t PackedMatMulWeightsSize(int64_t k, int64_t n) {
  const PackedLayout* l = k > 0 && n > 0 ? GetPackedLayout(k, n) : nullptr;
  return l ? memory::desc(l->md).get_size() / sizeof(float) : 0;
}

bool PackMatMulWeights(int64_t k, int64_t n, const float* kn, float* packed) {
  const PackedLayout* l = k > 0 && n > 0 ? GetPackedLayout(k, n) : nullptr;
  if (l == nullptr) return false;
  auto& eng = Engine();
  memory src(memory::desc({k, n}, memory::data_type::f32, tag::ab), eng, const_cast<float*>(kn));
  memory dst(memory::desc(l->md), eng, packed);
  dnnl::reorder(src, dst).execute(ThreadStream(), src, dst);
  return true;
}

#else  // no oneDNN: FusedMatMul uses its reference loop.

struct DnnlMatMulPlan {};
const DnnlMatMulPlan* GetDnnlMatMulPlan(const DnnlMatMulParams&, uint32_t) { return nullptr; }
uint32_t DnnlMatMulPlanBlocks(const DnnlMatMulPlan*) { return 0; }
void DnnlMatMulBlockRows(const DnnlMatMulPlan*, uint32_t, int64_t* row0, int64_t* rows) { *row0 = *rows = 0; }
void RunDnnlMatMul(const DnnlMatMulPlan*, uint32_t, const float*, const float*, const float*, const float*, float*) {}
size_t PackedMatMulWeightsSize(int64_t, int64_t) { return 0; }
bool PackMatMulWeights(int64_t, int64_t, const float*, float*) { return false; }

#endif

}  // namespace ge::ops_util
