#include "ops/dnnl_conv.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#ifdef GE_HAVE_DNNL
#include <omp.h>

#include <dnnl.hpp>
#endif

namespace ge::ops_util {

bool ParseConvAct(const std::string& name, ConvAct* act) {
  static const std::pair<const char*, ConvAct> kNames[] = {
      {"", ConvAct::kNone},     {"Relu", ConvAct::kRelu},           {"LeakyRelu", ConvAct::kLeakyRelu},
      {"Clip", ConvAct::kClip}, {"Sigmoid", ConvAct::kSigmoid},     {"HardSigmoid", ConvAct::kHardSigmoid},
      {"Tanh", ConvAct::kTanh}, {"HardSwish", ConvAct::kHardSwish}, {"Swish", ConvAct::kSwish}};
  for (const auto& [n, a] : kNames)
    if (name == n) {
      *act = a;
      return true;
    }
  return false;
}

float ApplyConvAct(ConvAct act, float a0, float a1, float v) {
  switch (act) {
    case ConvAct::kNone: return v;
    case ConvAct::kRelu: return v > 0.f ? v : 0.f;
    case ConvAct::kLeakyRelu: return v >= 0.f ? v : a0 * v;
    case ConvAct::kClip: return std::min(std::max(v, a0), a1);
    case ConvAct::kSigmoid: return 1.f / (1.f + std::exp(-v));
    case ConvAct::kHardSigmoid: return std::min(std::max(a0 * v + a1, 0.f), 1.f);
    case ConvAct::kHardSwish: return v * std::min(std::max(v / 6.f + 0.5f, 0.f), 1.f);
    case ConvAct::kTanh: return std::tanh(v);
    case ConvAct::kSwish: return v / (1.f + std::exp(-v));
  }
  return v;
}

#ifdef GE_HAVE_DNNL
namespace {
using dnnl::memory;
using tag = memory::format_tag;

dnnl::engine& Engine() {
  static dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  return eng;
}

// oneDNN runs single-threaded inside a block: the device's cores are the parallelism.
dnnl::stream& ThreadStream() {
  thread_local bool single = [] {
    omp_set_num_threads(1);
    return true;
  }();
  (void)single;
  thread_local dnnl::stream s(Engine());
  return s;
}

struct Block {
  dnnl::convolution_forward prim;
  memory::desc x_md, y_md, scratch_md;
  int64_t x_off, y_off;  // floats from the tensor starts
  size_t y_count;        // floats this block writes
};

memory::desc WeightsMd(const DnnlConvParams& p, tag t) {
  memory::dims d = p.group == 1 ? memory::dims{p.m, p.c, p.kh, p.kw}
                                : memory::dims{p.group, p.m / p.group, p.c / p.group, p.kh, p.kw};
  return memory::desc(d, memory::data_type::f32, t);
}

void AppendAct(const DnnlConvParams& p, dnnl::post_ops* po) {
  using dnnl::algorithm;
  switch (static_cast<ConvAct>(p.act)) {
    case ConvAct::kNone: break;
    case ConvAct::kRelu: po->append_eltwise(1.f, algorithm::eltwise_relu, 0.f, 0.f); break;
    case ConvAct::kLeakyRelu: po->append_eltwise(1.f, algorithm::eltwise_relu, p.a0, 0.f); break;
    case ConvAct::kClip: po->append_eltwise(1.f, algorithm::eltwise_clip, p.a0, p.a1); break;
    case ConvAct::kSigmoid: po->append_eltwise(1.f, algorithm::eltwise_logistic, 0.f, 0.f); break;
    case ConvAct::kHardSigmoid:
      po->append_eltwise(1.f, algorithm::eltwise_linear, p.a0, p.a1);
      po->append_eltwise(1.f, algorithm::eltwise_clip, 0.f, 1.f);
      break;
    case ConvAct::kHardSwish: po->append_eltwise(1.f, algorithm::eltwise_hardswish, 0.f, 0.f); break;
    case ConvAct::kTanh: po->append_eltwise(1.f, algorithm::eltwise_tanh, 0.f, 0.f); break;
    case ConvAct::kSwish: po->append_eltwise(1.f, algorithm::eltwise_swish, 1.f, 0.f); break;
  }
}

// The primitive descriptor for n images of ih input rows giving oh output rows with these pads.
bool MakePd(const DnnlConvParams& p, int64_t n, int64_t ih, int64_t oh, int64_t pt, int64_t pb,
            dnnl::convolution_forward::primitive_desc* out) {
  auto f32 = memory::data_type::f32;
  memory::desc x_md({n, p.c, ih, p.w}, f32, tag::nhwc);
  memory::desc y_md({n, p.m, oh, p.ow}, f32, tag::nhwc);
  memory::desc b_md({p.m}, f32, tag::x);
  memory::desc w_md = WeightsMd(p, tag::any);
  dnnl::post_ops po;
  if (p.has_z) po.append_sum(1.f);
  AppendAct(p, &po);
  dnnl::primitive_attr attr;
  attr.set_post_ops(po);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  try {
    auto alg = dnnl::algorithm::convolution_direct;
    auto pk = dnnl::prop_kind::forward_inference;
    memory::dims strides{p.sh, p.sw}, dil{p.dh - 1, p.dw - 1}, pl{pt, p.pl}, pr{pb, p.pr};
    auto d = p.has_bias ? dnnl::convolution_forward::desc(pk, alg, x_md, w_md, b_md, y_md, strides, dil, pl, pr)
                        : dnnl::convolution_forward::desc(pk, alg, x_md, w_md, y_md, strides, dil, pl, pr);
    *out = dnnl::convolution_forward::primitive_desc(d, attr, Engine());
  } catch (const dnnl::error&) {
    return false;
  }
  return true;
}

}  // namespace

struct DnnlConvPlan {
  memory::desc w_md, b_md;
  std::vector<Block> blocks;
};

namespace {

// Splits into `nb` blocks over images (n > 1) or output rows; false if a block's primitive
// reads another weights layout than the whole-tensor one (packing assumes one layout).
bool BuildBlocks(const DnnlConvParams& p, uint32_t nb, const memory::desc& w_md, DnnlConvPlan* plan) {
  plan->blocks.clear();
  bool by_image = p.n > 1;
  int64_t total = by_image ? p.n : p.oh;
  nb = static_cast<uint32_t>(std::min<int64_t>(nb, total));
  int64_t per = total / nb, rem = total % nb, begin = 0;
  for (uint32_t b = 0; b < nb; ++b) {
    int64_t end = begin + per + (b < rem ? 1 : 0);
    dnnl::convolution_forward::primitive_desc pd;
    Block blk;
    if (by_image) {
      if (!MakePd(p, end - begin, p.h, p.oh, p.pt, p.pb, &pd)) return false;
      blk.x_off = begin * p.h * p.w * p.c;
      blk.y_off = begin * p.oh * p.ow * p.m;
      blk.y_count = (end - begin) * p.oh * p.ow * p.m;
    } else {
      int64_t keff = (p.kh - 1) * p.dh + 1;
      int64_t first = begin * p.sh - p.pt, last = (end - 1) * p.sh - p.pt + keff;  // rows [first, last)
      int64_t ih0 = std::max<int64_t>(0, first), ih1 = std::min<int64_t>(p.h, last);
      if (ih1 <= ih0) return false;
      if (!MakePd(p, 1, ih1 - ih0, end - begin, ih0 - first, last - ih1, &pd)) return false;
      blk.x_off = ih0 * p.w * p.c;
      blk.y_off = begin * p.ow * p.m;
      blk.y_count = (end - begin) * p.ow * p.m;
    }
    if (pd.weights_desc() != w_md) return false;
    blk.prim = dnnl::convolution_forward(pd);
    blk.x_md = pd.src_desc();
    blk.y_md = pd.dst_desc();
    blk.scratch_md = pd.scratchpad_desc();
    plan->blocks.push_back(std::move(blk));
    begin = end;
  }
  return true;
}

std::unique_ptr<DnnlConvPlan> BuildPlan(const DnnlConvParams& p, uint32_t max_blocks) {
  // Primitives plan their thread count when they are created: create them single-threaded too,
  // or each execution starts an OpenMP team whose threads spin beside the device's cores.
  ThreadStream();
  dnnl::convolution_forward::primitive_desc whole;
  if (!MakePd(p, p.n, p.h, p.oh, p.pt, p.pb, &whole)) return nullptr;
  auto plan = std::make_unique<DnnlConvPlan>();
  plan->w_md = whole.weights_desc();
  plan->b_md = memory::desc({p.m}, memory::data_type::f32, tag::x);
  // Blocks of at least ~1 MFLOP, so that the split pays for its hand-off.
  int64_t flops = 2 * p.n * p.m * p.oh * p.ow * (p.c / p.group) * p.kh * p.kw;
  uint32_t nb = static_cast<uint32_t>(std::clamp<int64_t>(flops / (1 << 20), 1, std::max<uint32_t>(max_blocks, 1)));
  for (; nb > 1; --nb)
    if (BuildBlocks(p, nb, plan->w_md, plan.get())) return plan;
  if (!BuildBlocks(p, 1, plan->w_md, plan.get())) return nullptr;
  return plan;
}

std::mutex g_mu;
std::unordered_map<std::string, std::unique_ptr<DnnlConvPlan>> g_plans;

// The parameters as bytes, field by field (no struct padding in the key).
std::string Key(const DnnlConvParams& p, uint32_t max_blocks) {
  const int64_t ints[] = {p.n,  p.c,  p.h,  p.w,  p.m,  p.group, p.kh, p.kw,  p.sh,       p.sw,    p.dh,
                          p.dw, p.pt, p.pl, p.pb, p.pr, p.oh,    p.ow, p.act, p.has_bias, p.has_z, max_blocks};
  const float floats[] = {p.a0, p.a1};
  std::string k(reinterpret_cast<const char*>(ints), sizeof(ints));
  k.append(reinterpret_cast<const char*>(floats), sizeof(floats));
  return k;
}

}  // namespace

bool DnnlConvSupported(const DnnlConvParams& p) { return GetDnnlConvPlan(p, 1) != nullptr; }

const DnnlConvPlan* GetDnnlConvPlan(const DnnlConvParams& p, uint32_t max_blocks) {
  std::string key = Key(p, max_blocks);
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_plans.find(key);
  if (it != g_plans.end()) return it->second.get();
  auto plan = BuildPlan(p, max_blocks);
  const DnnlConvPlan* raw = plan.get();
  g_plans.emplace(std::move(key), std::move(plan));  // a null plan is cached too: unsupported
  return raw;
}

uint32_t DnnlConvPlanBlocks(const DnnlConvPlan* plan) { return static_cast<uint32_t>(plan->blocks.size()); }

void RunDnnlConv(const DnnlConvPlan* plan, uint32_t block, const float* x, const float* w, const float* bias,
                 const float* z, float* y) {
  const Block& b = plan->blocks[block];
  float* yb = y + b.y_off;
  if (z != nullptr && z + b.y_off != yb) std::memcpy(yb, z + b.y_off, b.y_count * sizeof(float));
  auto& eng = Engine();
  thread_local std::vector<uint8_t> scratch;
  size_t need = b.scratch_md.get_size();
  if (scratch.size() < need) scratch.resize(need);
  std::unordered_map<int, memory> args;
  args.emplace(DNNL_ARG_SRC, memory(b.x_md, eng, const_cast<float*>(x + b.x_off)));
  args.emplace(DNNL_ARG_WEIGHTS, memory(plan->w_md, eng, const_cast<float*>(w)));
  if (bias) args.emplace(DNNL_ARG_BIAS, memory(plan->b_md, eng, const_cast<float*>(bias)));
  args.emplace(DNNL_ARG_DST, memory(b.y_md, eng, yb));
  args.emplace(DNNL_ARG_SCRATCHPAD, memory(b.scratch_md, eng, scratch.data()));
  b.prim.execute(ThreadStream(), args);
}

size_t PackedConvWeightsSize(const DnnlConvParams& p) {
  const DnnlConvPlan* plan = GetDnnlConvPlan(p, 1);
  return plan ? plan->w_md.get_size() / sizeof(float) : 0;
}

bool PackConvWeights(const DnnlConvParams& p, const float* oihw, float* packed) {
  const DnnlConvPlan* plan = GetDnnlConvPlan(p, 1);
  if (!plan) return false;
  auto& eng = Engine();
  memory src(WeightsMd(p, p.group == 1 ? tag::oihw : tag::goihw), eng, const_cast<float*>(oihw));
  memory dst(plan->w_md, eng, packed);
  dnnl::reorder(src, dst).execute(ThreadStream(), src, dst);
  return true;
}

#else  // no oneDNN: the NHWC path is unavailable; FusedConv keeps its NCHW kernel.

struct DnnlConvPlan {};
bool DnnlConvSupported(const DnnlConvParams&) { return false; }
const DnnlConvPlan* GetDnnlConvPlan(const DnnlConvParams&, uint32_t) { return nullptr; }
uint32_t DnnlConvPlanBlocks(const DnnlConvPlan*) { return 0; }
void RunDnnlConv(const DnnlConvPlan*, uint32_t, const float*, const float*, const float*, const float*, float*) {}
size_t PackedConvWeightsSize(const DnnlConvParams&) { return 0; }
bool PackConvWeights(const DnnlConvParams&, const float*, float*) { return false; }

#endif

}  // namespace ge::ops_util
