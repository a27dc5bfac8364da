// GE's own kernel for the 1x1 convolutions of late layers (few output pixels, large weights):
// Y[M, N] = act(X[M, K] W[K, N] + bias + Z), X the NHWC pixels, W packed in panels of 64 output
// channels (the last one 16, 32 or 48 wide), each panel K rows of its channels. Tiles of 7
// pixels by one panel (28 accumulators); while a panel's tiles run, they prefetch the next
// panel into L2, spread over their steps. In a model the weights of these layers come from L3
// or memory (mobilenet_v2's 7x7x320 -> 1280: 1.6 MB), and oneDNN's brgconv streams each panel
// only when its first tile reads it: in isolation, with 64 MB read between runs, 7x7x320 -> 1280
// ran 398 us in brgconv and 311 us here, 7x7x960 -> 320 296 against 240, 7x7x160 -> 960 164
// against 120. Where the weights are in L2 the two are within a few percent.
#ifndef GE_SRC_OPS_CONV_OWN_GEMM_H_
#define GE_SRC_OPS_CONV_OWN_GEMM_H_

#include <cstdint>

namespace ge::ops_util {

struct DnnlConvParams;

// Whether this build has the kernel (AVX-512) and GE_CONV_OWN_GEMM is not 0.
bool OwnGemmEnabled();
// Whether p is one of the kernel's: a 1x1, stride-1, unpadded, one-group convolution of at most
// kOwnGemmMaxPixels output pixels, output channels a multiple of 16, weights of at least
// kOwnGemmMinWeights floats, an activation it computes (none, Relu, Clip, Swish).
bool OwnGemmConv(const DnnlConvParams& p);
// OIHW weights [n, k, 1, 1] -> the panels (n * k floats).
void PackOwnGemm(int64_t k, int64_t n, const float* oihw, float* panels);
// Output channels [c0, c1) (c0 a multiple of 64, c1 of 16 or n) of m pixels: y[m, n] from x
// [m, k], the panels, bias (or null), z [m, n] (or null; may be y itself).
void RunOwnGemm(int64_t m, int64_t k, int64_t n, int64_t c0, int64_t c1, const float* x, const float* panels,
                const float* bias, const float* z, float* y, int32_t act, float a0, float a1);

}  // namespace ge::ops_util

#endif  // GE_SRC_OPS_CONV_OWN_GEMM_H_
