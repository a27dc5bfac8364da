#include "ops/dnnl_conv.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
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

// The primitive descriptor for one image of ih input rows giving oh output rows with these pads.
bool MakePd(const DnnlConvParams& p, int64_t ih, int64_t oh, int64_t pt, int64_t pb,
            dnnl::convolution_forward::primitive_desc* out) {
  auto f32 = memory::data_type::f32;
  memory::desc x_md({1, p.c, ih, p.w}, f32, tag::nhwc);
  memory::desc y_md({1, p.m, oh, p.ow}, f32, tag::nhwc);
  memory::desc b_md({p.m}, f32, tag::x);
  memory::desc w_md = WeightsMd(p, tag::any);
  dnnl::post_ops po;
  if (p.has_z) po.append_sum(1.f);
  AppendAct(static_cast<ConvAct>(p.act), p.a0, p.a1, &po);
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
  int64_t x_image, y_image;  // floats per image
  std::vector<Block> blocks;
};

namespace {

// Splits one image's output rows into `nb` blocks; false if a block's primitive reads another
// weights layout than the whole-image one (packing assumes one layout).
bool BuildBlocks(const DnnlConvParams& p, uint32_t nb, const memory::desc& w_md, DnnlConvPlan* plan) {
  plan->blocks.clear();
  nb = static_cast<uint32_t>(std::min<int64_t>(nb, p.oh));
  int64_t per = p.oh / nb, rem = p.oh % nb, begin = 0;
  for (uint32_t b = 0; b < nb; ++b) {
    int64_t end = begin + per + (b < rem ? 1 : 0);
    dnnl::convolution_forward::primitive_desc pd;
    Block blk;
    int64_t keff = (p.kh - 1) * p.dh + 1;
    int64_t first = begin * p.sh - p.pt, last = (end - 1) * p.sh - p.pt + keff;  // rows [first, last)
    int64_t ih0 = std::max<int64_t>(0, first), ih1 = std::min<int64_t>(p.h, last);
    if (ih1 <= ih0) return false;
    if (nb == 1) {
      if (!MakePd(p, p.h, p.oh, p.pt, p.pb, &pd)) return false;
      ih0 = 0;
    } else if (!MakePd(p, ih1 - ih0, end - begin, ih0 - first, last - ih1, &pd)) {
      return false;
    }
    if (pd.weights_desc() != w_md) return false;
    blk.prim = dnnl::convolution_forward(pd);
    blk.x_md = pd.src_desc();
    blk.y_md = pd.dst_desc();
    blk.scratch_md = pd.scratchpad_desc();
    blk.x_off = ih0 * p.w * p.c;
    blk.y_off = begin * p.ow * p.m;
    blk.y_count = (end - begin) * p.ow * p.m;
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
  if (!MakePd(p, p.h, p.oh, p.pt, p.pb, &whole)) return nullptr;
  auto plan = std::make_unique<DnnlConvPlan>();
  plan->w_md = whole.weights_desc();
  plan->b_md = memory::desc({p.m}, memory::data_type::f32, tag::x);
  plan->x_image = p.h * p.w * p.c;
  plan->y_image = p.oh * p.ow * p.m;
  // Blocks of at least ~1 MFLOP, so that the split pays for its hand-off.
  int64_t flops = 2 * p.m * p.oh * p.ow * (p.c / p.group) * p.kh * p.kw;
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
  const int64_t ints[] = {int64_t{1}, p.c,  p.h,  p.w,  p.m,  p.group, p.kh, p.kw,  p.sh,       p.sw,    p.dh,
                          p.dw,       p.pt, p.pl, p.pb, p.pr, p.oh,    p.ow, p.act, p.has_bias, p.has_z, max_blocks};
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

namespace {
// A block's execution arguments, made once per thread and rebound to each run's pointers
// (creating oneDNN memory objects and the argument map on every call cost ~15% of a small model).
struct BoundArgs {
  std::unordered_map<int, memory> args;
  memory *src, *weights, *bias, *dst, *scratch;
};

BoundArgs& Bind(const DnnlConvPlan* plan, const Block& b, bool has_bias) {
  thread_local std::unordered_map<const Block*, std::unique_ptr<BoundArgs>> bound;
  auto& slot = bound[&b];
  if (!slot || (slot->bias != nullptr) != has_bias) {
    slot = std::make_unique<BoundArgs>();
    auto& eng = Engine();
    auto add = [&](int arg, const memory::desc& md) {
      return &slot->args.emplace(arg, memory(md, eng, nullptr)).first->second;
    };
    slot->src = add(DNNL_ARG_SRC, b.x_md);
    slot->weights = add(DNNL_ARG_WEIGHTS, plan->w_md);
    slot->bias = has_bias ? add(DNNL_ARG_BIAS, plan->b_md) : nullptr;
    slot->dst = add(DNNL_ARG_DST, b.y_md);
    slot->scratch = add(DNNL_ARG_SCRATCHPAD, b.scratch_md);
  }
  return *slot;
}
}  // namespace

void RunDnnlConv(const DnnlConvPlan* plan, uint32_t block, int64_t images, const float* x, const float* w,
                 const float* bias, const float* z, float* y) {
  const Block& b = plan->blocks[block];
  thread_local std::vector<uint8_t> scratch;
  size_t need = b.scratch_md.get_size();
  if (scratch.size() < need) scratch.resize(need);
  BoundArgs& a = Bind(plan, b, bias != nullptr);
  a.weights->set_data_handle(const_cast<float*>(w));
  if (bias) a.bias->set_data_handle(const_cast<float*>(bias));
  a.scratch->set_data_handle(scratch.data());
  for (int64_t i = 0; i < images; ++i) {  // one primitive per image: the packed layout is per image
    float* yb = y + i * plan->y_image + b.y_off;
    if (z != nullptr && z + i * plan->y_image + b.y_off != yb)
      std::memcpy(yb, z + i * plan->y_image + b.y_off, b.y_count * sizeof(float));
    a.src->set_data_handle(const_cast<float*>(x + i * plan->x_image + b.x_off));
    a.dst->set_data_handle(yb);
    b.prim.execute(ThreadStream(), a.args);
  }
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
void RunDnnlConv(const DnnlConvPlan*, uint32_t, int64_t, const float*, const float*, const float*, const float*,
                 float*) {}
size_t PackedConvWeightsSize(const DnnlConvParams&) { return 0; }
bool PackConvWeights(const DnnlConvParams&, const float*, float*) { return false; }

#endif

}  // namespace ge::ops_util
