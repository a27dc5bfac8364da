// 2-D float convolution in NHWC through oneDNN's primitives (brgconv, depthwise brdgmm: 3-30x
// the im2col path on AVX-512), with the epilogue fused: bias, residual sum, activation.
// A plan splits one image's output rows into blocks, one single-threaded primitive per block, so
// the device's cores are the parallelism and oneDNN's OpenMP never spins beside them; a batch
// runs image by image, so plans and the packed weights layout do not depend on the batch size
// (dynamic-batch models share them). Plans are made
// once per parameter set (at tiling time: compile time for sink segments) and cached for the
// process, so a repeated shape costs a hash lookup. Weights are packed once, at compile time,
// into the layout the plan's primitives read (PackConvWeights).
#ifndef GE_SRC_OPS_DNNL_CONV_H_
#define GE_SRC_OPS_DNNL_CONV_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ge::ops_util {

// Fused activations (FusedConv's `activation` attribute).
enum class ConvAct : int32_t {
  kNone,
  kRelu,
  kLeakyRelu,
  kClip,
  kSigmoid,
  kHardSigmoid,
  kHardSwish,
  kTanh,
  kSwish,
  kGelu  // erf form: 0.5 x (1 + erf(x / sqrt 2))
};

// Parses an activation name ("" = none); false for an unknown name.
bool ParseConvAct(const std::string& name, ConvAct* act);
// An activation attribute pair (name, params) with ONNX's defaults for absent params (LeakyRelu
// alpha 0.01, HardSigmoid 0.2/0.5, Clip unbounded); false for an unknown name.
bool ParseActivation(const std::string& name, const std::vector<float>& params, ConvAct* act, float* a0, float* a1);
// The activation applied to one value (the reference the fused epilogues must match).
float ApplyConvAct(ConvAct act, float a0, float a1, float v);

// The most blocks a plan takes on `cores` device cores: two per core beyond one, so the faster
// core takes more blocks of a large plan (this machine's vCPUs are shared and unequal; see
// SplitBlocks for which plans); one block on one core.
inline uint32_t OversplitBlocks(uint32_t cores) { return cores > 1 ? 2 * cores : 1; }
// A block count of at most `max_blocks` (OversplitBlocks(cores)) rounded up to a multiple of the
// cores, so that every core takes as many blocks: mobilenet_v2's 14x14x384 depthwise convolutions
// ran in 3 row blocks at 2 threads, one core running two of them while the other waited.
inline uint32_t WholeRounds(uint32_t nb, uint32_t max_blocks) {
  const uint32_t cores = max_blocks / 2;
  if (nb <= 1 || cores <= 1) return nb;
  return std::min(max_blocks, (nb + cores - 1) / cores * cores);
}

// Blocks for `work` (FLOP, memory counted as the plan counts it) on at most max_blocks
// (OversplitBlocks): blocks of at least min_block_work, and two blocks per core only where each
// still holds kOversplitMinWork, else one per core; as whole rounds. Every block costs a hand-off
// and a primitive call, and the second core reads rows the first wrote: with two blocks a core
// on every plan, mobilenet_v2, efficientnet_b0 and tinybert ran 6-7% slower at 2 threads (3.06
// against 2.85 ms, 5.47 against 5.08, 3.53 against 3.30), resnet50 and densenet121 the same.
constexpr int64_t kOversplitMinWork = int64_t{64} << 20;
inline uint32_t SplitBlocks(int64_t work, int64_t min_block_work, uint32_t max_blocks) {
  const uint32_t most = std::max<uint32_t>(max_blocks, 1), cores = max_blocks / 2;
  auto nb = static_cast<uint32_t>(std::clamp<int64_t>(work / min_block_work, 1, most));
  if (cores > 1 && nb > cores && work < kOversplitMinWork * most) nb = cores;
  return WholeRounds(nb, max_blocks);
}

struct DnnlConvParams {
  int64_t n, c, h, w;  // input, NHWC
  int64_t m, group;    // output channels, groups
  int64_t kh, kw, sh, sw, dh, dw;
  int64_t pt, pl, pb, pr;   // pads
  int64_t oh, ow;           // output spatial dims
  int32_t act;              // ConvAct
  float a0, a1;             // activation parameters
  int32_t has_bias, has_z;  // bias input, residual input
};

struct DnnlConvPlan;

// True when oneDNN is available and has a primitive for these parameters.
bool DnnlConvSupported(const DnnlConvParams& p);
// The cached plan for p with at most max_blocks row blocks (null if unsupported). Thread-safe.
const DnnlConvPlan* GetDnnlConvPlan(const DnnlConvParams& p, uint32_t max_blocks);
// Why GetDnnlConvPlan has no plan for p (a pad of the kernel's extent or more, sizes beyond
// oneDNN's 32-bit offsets, no primitive).
std::string DnnlConvRefusal(const DnnlConvParams& p);
uint32_t DnnlConvPlanBlocks(const DnnlConvPlan* plan);
// Runs block `block` of the plan on `images` images. w is the packed weights; z may be null.
// x_scale (may be null): one factor per input channel (per image when scale_per_image) that
// multiplies the input first, X * S: the block scales its own input rows into a per-thread buffer.
void RunDnnlConv(const DnnlConvPlan* plan, uint32_t block, int64_t images, const float* x, const float* w,
                 const float* bias, const float* z, float* y, const float* x_scale = nullptr,
                 bool scale_per_image = false, float* row_means = nullptr);
// Floats in the packed weights of p (0 when unsupported); packs OIHW weights (group-major as in
// ONNX: [M, C/group, kh, kw]) into that layout.
size_t PackedConvWeightsSize(const DnnlConvParams& p);
bool PackConvWeights(const DnnlConvParams& p, const float* oihw, float* packed);

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_DNNL_CONV_H_
