// FusedMatMul's block splits (rows; columns for matrix-vector products and wide products) against
// a plain triple loop written here, with bias, residual and GELU, in sink and host mode, with B
// plain (-O0) and packed at compile time (-O2, matmul-weight-packing); packed B of the wrong
// size; FusedAttention against the formula written out; the NHWC conv's weight checks (a
// kernel_shape that contradicts W, packed weights of the wrong size); the Winograd and the
// gathered strided 1x1 convolutions and the input scale (on the weights or on the input rows)
// against direct loops; and the float reductions' fast forms
// against a loop over every element; two SqueezeNet Fire tails (concat-conv-split) and the NCHW
// depthwise convolution against loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "ge/graph.h"
#include "ge/model.h"

namespace ge {
namespace {

HostTensor Random(Shape s, uint32_t seed) {
  HostTensor t(DT_FLOAT, s);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.mutable_data_as<float>()[i] = d(rng);
  return t;
}

// Compiles g in `mode` (sink or host) and runs it on `inputs`.
Status CompileAndRun(const std::shared_ptr<Graph>& g, const std::string& mode, const std::vector<HostTensor>& inputs,
                     std::vector<HostTensor>* out) {
  ModelOptions opt;
  opt.mode = mode;
  std::unique_ptr<Model> model;
  Status st = Model::FromGraph(g, opt, &model);
  return st.ok() ? model->Run(inputs, out) : st;
}

// y = gelu(a x w + bias + z), a [rows, k], w [k, n]; expected by the loop below.
void CheckSplit(int64_t rows, int64_t k, int64_t n, const std::string& mode, int opt_level) {
  auto g = std::make_shared<Graph>("g");
  HostTensor a = Random(Shape({rows, k}), 1), z = Random(Shape({rows, n}), 2);
  HostTensor w = Random(Shape({k, n}), 3), bias = Random(Shape({n}), 4);
  ValueId av = g->AddInput("a", a.desc()), zv = g->AddInput("z", z.desc());
  ValueId wv = g->AddConstant("w", w), bv = g->AddConstant("bias", bias);
  ValueId y = g->AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({rows, n})});
  g->AddNode("mm", "FusedMatMul", {av, wv, bv, zv}, {y},
             {{"activation", std::string("Gelu")}, {"activation_params", std::vector<float>{}}});
  g->AddOutput(y);
  ModelOptions opt;
  opt.mode = mode;
  opt.opt_level = opt_level;
  std::unique_ptr<Model> model;
  Status st = Model::FromGraph(g, opt, &model);
  ASSERT_TRUE(st.ok()) << st.message();
  int packed = 0;
  for (size_t i = 0; i < model->graph().num_nodes(); ++i) {
    const Node& node = model->graph().node(static_cast<NodeId>(i));
    const int64_t* p = node.GetAttr<int64_t>("packed_weights");
    packed += node.type == "FusedMatMul" && p && *p == 1;
  }
  EXPECT_EQ(packed, opt_level == 2 ? 1 : 0) << "B packed at -O2 only";
  std::vector<HostTensor> out;
  st = model->Run({a, z}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j) {
      double v = bias.data_as<float>()[j] + z.data_as<float>()[r * n + j];
      for (int64_t p = 0; p < k; ++p) v += double(a.data_as<float>()[r * k + p]) * w.data_as<float>()[p * n + j];
      double want = 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
      ASSERT_NEAR(out[0].data_as<float>()[r * n + j], want, 1e-3 * (1 + std::fabs(want)))
          << rows << "x" << k << "x" << n << " " << mode << " -O" << opt_level << " at " << r << "," << j;
    }
}

TEST(FusedMatMulSplit, MatrixVectorOverColumns) {
  for (const char* mode : {"sink", "host"})
    for (int level : {0, 2}) CheckSplit(4, 1024, 1000, mode, level);
}
// One and two rows: more column blocks than rows (every block must run, not one per row). One row
// of a packed B is GE's own product over 64-column panels: K not a multiple of the panel's 16-row
// blocks, N not of 64 (a partial last panel), fewer than four panels.
TEST(FusedMatMulSplit, SingleRowOverColumns) {
  for (const char* mode : {"sink", "host"})
    for (int level : {0, 2}) {
      CheckSplit(1, 576, 1024, mode, level);
      CheckSplit(1, 1001, 1000, mode, level);
      CheckSplit(1, 37, 150, mode, level);
      CheckSplit(2, 512, 1000, mode, level);
    }
}
TEST(FusedMatMulSplit, WideOverColumns) {
  for (const char* mode : {"sink", "host"})
    for (int level : {0, 2}) CheckSplit(64, 256, 1024, mode, level);
}
TEST(FusedMatMulSplit, NarrowOverRows) {
  for (const char* mode : {"sink", "host"})
    for (int level : {0, 2}) CheckSplit(128, 256, 256, mode, level);
}

// A FusedMatMul whose packed B is not the packed layout's size for weights_shape: the compile
// fails naming the node.
TEST(FusedMatMulSplit, PackedWeightsOfTheWrongSize) {
  auto g = std::make_shared<Graph>("g");
  ValueId a = g->AddInput("a", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({4, 64})});
  ValueId w = g->AddConstant("w", HostTensor(DT_FLOAT, Shape({100})));
  ValueId y = g->AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
  g->AddNode("mm", "FusedMatMul", {a, w, kNoValue, kNoValue}, {y},
             {{"packed_weights", int64_t{1}}, {"weights_shape", std::vector<int64_t>{64, 64}}});
  g->AddOutput(y);
  std::unique_ptr<Model> model;
  Status st = Model::FromGraph(g, ModelOptions{}, &model);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("node 'mm' (FusedMatMul)"), std::string::npos) << st.message();
}

// An NHWC FusedConv whose packed weights are not what its primitive reads: the compile (sink) or
// the run (host: tiling at run time) fails naming the node, nothing is read.
std::string PackedConvError(Shape w_shape, std::vector<int64_t> kernel_shape, int64_t packed,
                            std::vector<int64_t> pads = {0, 0, 0, 0}, const std::string& mode = "sink") {
  auto g = std::make_shared<Graph>("g");
  ValueId x = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1, 8, 8, 4})});
  ValueId w = g->AddConstant("w", HostTensor(DT_FLOAT, w_shape));
  ValueId y = g->AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
  g->AddNode("conv", "FusedConv", {x, w, kNoValue, kNoValue}, {y},
             {{"layout", std::string("NHWC")},
              {"kernel_shape", kernel_shape},
              {"out_channels", int64_t{4}},
              {"pads", pads},
              {"packed_weights", packed}});
  g->AddOutput(y);
  ModelOptions opt;
  opt.mode = mode;
  std::unique_ptr<Model> model;
  Status st = Model::FromGraph(g, opt, &model);
  if (st.ok()) {
    std::vector<HostTensor> out;
    st = model->Run({HostTensor(DT_FLOAT, Shape({1, 8, 8, 4}))}, &out);
  }
  EXPECT_FALSE(st.ok()) << mode;
  return st.message();
}

TEST(FusedConvWeights, PackedWeightsOfTheWrongSize) {
  for (const char* mode : {"sink", "host"}) {
    const std::string msg = PackedConvError(Shape({10}), {3, 3}, 1, {0, 0, 0, 0}, mode);
    EXPECT_NE(msg.find("node 'conv' (FusedConv)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("expected the packed weights W to hold"), std::string::npos) << msg;
    EXPECT_NE(msg.find("got 10"), std::string::npos) << msg;
  }
}

// A pad of at least the kernel's extent (a mutated offline model's right pad of 5505025 made
// oneDNN allocate past 14 GiB): no kernel takes it, and the error says which pad. In host mode a
// pad of 5 (the run allocates the output before its tiling fails: 700 MB for 5505025).
TEST(FusedConvWeights, APadOfTheKernelsExtentIsRefusedWithItsReason) {
  for (const char* mode : {"sink", "host"}) {
    const int64_t pad = std::string(mode) == "sink" ? 5505025 : 5;
    const std::string msg = PackedConvError(Shape({10}), {3, 3}, 1, {1, 1, 1, pad}, mode);
    EXPECT_NE(msg.find("node 'conv' (FusedConv)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("pads [1, 1, 1, " + std::to_string(pad) + "]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("3x3 kernel's extent (3x3)"), std::string::npos) << msg;
  }
}

TEST(FusedConvWeights, KernelShapeThatContradictsW) {
  // A Conv whose kernel_shape (3x3) is not W's ([4, 4, 1, 1]): the kernels would read W as 3x3.
  auto g = std::make_shared<Graph>("g");
  ValueId x = g->AddInput("x", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({1, 4, 8, 8})});
  ValueId w = g->AddConstant("w", HostTensor(DT_FLOAT, Shape({4, 4, 1, 1})));
  ValueId y = g->AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
  g->AddNode("conv", "Conv", {x, w}, {y}, {{"kernel_shape", std::vector<int64_t>{3, 3}}});
  g->AddOutput(y);
  std::unique_ptr<Model> model;
  Status st = Model::FromGraph(g, ModelOptions{}, &model);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("node 'conv' (Conv)"), std::string::npos) << st.message();
}

// A FusedAttention whose head attributes overflow or read past Q's columns (a model may name the
// op): the compile fails naming the node, nothing is read.
TEST(FusedAttentionAttrs, HeadsOutsideTheInputsAreAnError) {
  for (int64_t head_dim : {int64_t{1} << 62, int64_t{8}}) {
    auto g = std::make_shared<Graph>("g");
    ValueId q = g->AddInput("q", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({3, 1, 8})});
    ValueId y = g->AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape::UnknownRank()});
    g->AddNode("att", "FusedAttention", {q, q, q}, {y},
               {{"num_heads", int64_t{4}}, {"head_dim", head_dim}, {"q_offset", int64_t{0}}});
    g->AddOutput(y);
    std::unique_ptr<Model> model;
    Status st = Model::FromGraph(g, ModelOptions{}, &model);
    ASSERT_FALSE(st.ok()) << head_dim;
    EXPECT_NE(st.message().find("node 'att' (FusedAttention)"), std::string::npos) << st.message();
  }
}

// FusedAttention's products (GE's register tiles where the key length and head size are multiples
// of the vector width, dnnl_sgemm elsewhere) against the attention written out here: two heads
// and two batches, Q from one tensor, K and V from one packed [Sk, B, 2 W] tensor at two offsets,
// a [Sq, Sk] mask, 1 to 77 query rows (every remainder of the 6-row tile), sink and host mode.
void CheckAttention(int64_t sq, int64_t sk, int64_t head_dim, const std::string& mode) {
  const int64_t heads = 2, batch = 2, w = heads * head_dim;
  HostTensor q = Random(Shape({sq, batch, w}), 11), kv = Random(Shape({sk, batch, 2 * w}), 12);
  HostTensor mask = Random(Shape({sq, sk}), 13);
  const float scale = 1.f / std::sqrt(static_cast<float>(head_dim));
  auto g = std::make_shared<Graph>("g");
  ValueId qv = g->AddInput("q", q.desc()), kvv = g->AddInput("kv", kv.desc()), mv = g->AddInput("mask", mask.desc());
  ValueId y = g->AddValue("y", TensorDesc{DT_FLOAT, FORMAT_ND, Shape({sq, batch, w})});
  g->AddNode("att", "FusedAttention", {qv, kvv, kvv, mv}, {y},
             {{"num_heads", heads},
              {"head_dim", head_dim},
              {"scale", scale},
              {"q_offset", int64_t{0}},
              {"k_offset", int64_t{0}},
              {"v_offset", w},
              {"seq_first", int64_t{1}}});
  g->AddOutput(y);
  std::vector<HostTensor> out;
  Status st = CompileAndRun(g, mode, {q, kv, mask}, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  auto qat = [&](int64_t s, int64_t b, int64_t col) { return double(q.data_as<float>()[(s * batch + b) * w + col]); };
  auto kvat = [&](int64_t s, int64_t b, int64_t col) {
    return double(kv.data_as<float>()[(s * batch + b) * 2 * w + col]);
  };
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < sq; ++i) {
        std::vector<double> p(sk);
        double mx = -1e300, sum = 0;
        for (int64_t j = 0; j < sk; ++j) {
          double dot = 0;
          for (int64_t c = 0; c < head_dim; ++c) dot += qat(i, b, h * head_dim + c) * kvat(j, b, h * head_dim + c);
          p[j] = dot * scale + mask.data_as<float>()[i * sk + j];
          mx = std::max(mx, p[j]);
        }
        for (auto& v : p) sum += v = std::exp(v - mx);
        for (int64_t c = 0; c < head_dim; ++c) {
          double want = 0;
          for (int64_t j = 0; j < sk; ++j) want += p[j] / sum * kvat(j, b, w + h * head_dim + c);
          ASSERT_NEAR(out[0].data_as<float>()[(i * batch + b) * w + h * head_dim + c], want, 1e-5)
              << "sq " << sq << " sk " << sk << " head_dim " << head_dim << " " << mode << " at batch " << b << " head "
              << h << " row " << i;
        }
      }
}

TEST(FusedAttentionKernel, MatchesTheFormula) {
  for (const char* mode : {"sink", "host"}) {
    for (int64_t sq : {1, 2, 3, 4, 5, 6, 13, 77}) CheckAttention(sq, 32, 16, mode);  // 2 key vectors of 16
    CheckAttention(70, 80, 64, mode);  // 80 keys: a 4-vector column tile and one more; 2 query blocks
    CheckAttention(9, 37, 16, mode);   // 37 keys: dnnl_sgemm
    CheckAttention(9, 32, 20, mode);   // 20-wide heads: dnnl_sgemm
  }
}

// Relu(Conv(x, wt, b) + z): the graph of a residual block's last convolution.
std::shared_ptr<Graph> ConvAddRelu(const HostTensor& x, const HostTensor& z, const HostTensor& wt, const HostTensor& b,
                                   AttrMap conv_attrs) {
  auto g = std::make_shared<Graph>("g");
  ValueId xv = g->AddInput("x", x.desc()), zv = g->AddInput("z", z.desc());
  ValueId wv = g->AddConstant("w", wt), bv = g->AddConstant("b", b);
  ValueId cv = g->AddValue("c"), sv = g->AddValue("s"), y = g->AddValue("y");
  g->AddNode("conv", "Conv", {xv, wv, bv}, {cv}, std::move(conv_attrs));
  g->AddNode("add", "Add", {cv, zv}, {sv});
  g->AddNode("relu", "Relu", {sv}, {y});
  g->AddOutput(y);
  return g;
}

// The Winograd convolution (on by default; GE_CONV_WINOGRAD=0 turns it off) on a 3x3 64-channel
// convolution with bias, a residual Add and Relu, against a direct convolution loop written here,
// in sink and host mode. 30 output rows: four row blocks of 8, 8, 8 and 6 rows (a partial last
// tile), each with the weights layout oneDNN chose for its rows.
TEST(FusedConvWinograd, MatchesADirectLoop) {
  const int64_t c = 64, m = 64, h = 30, w = 26;
  HostTensor x = Random(Shape({1, c, h, w}), 5), wt = Random(Shape({m, c, 3, 3}), 6), b = Random(Shape({m}), 7);
  HostTensor z = Random(Shape({1, m, h, w}), 8);
  for (const char* mode : {"sink", "host"}) {
    auto g = ConvAddRelu(x, z, wt, b,
                         {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    std::vector<HostTensor> out;
    Status st = CompileAndRun(g, mode, {x, z}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    const float* xp = x.data_as<float>();
    const float* wp = wt.data_as<float>();
    for (int64_t o = 0; o < m; ++o)
      for (int64_t i = 0; i < h; ++i)
        for (int64_t j = 0; j < w; ++j) {
          double v = b.data_as<float>()[o] + z.data_as<float>()[(o * h + i) * w + j];
          for (int64_t ci = 0; ci < c; ++ci)
            for (int64_t ki = 0; ki < 3; ++ki)
              for (int64_t kj = 0; kj < 3; ++kj) {
                const int64_t ii = i + ki - 1, jj = j + kj - 1;
                if (ii < 0 || ii >= h || jj < 0 || jj >= w) continue;
                v += double(xp[(ci * h + ii) * w + jj]) * wp[((o * c + ci) * 3 + ki) * 3 + kj];
              }
          const double want = std::max(v, 0.0);
          ASSERT_NEAR(out[0].data_as<float>()[(o * h + i) * w + j], want, 1e-3 * (1 + std::fabs(want)))
              << mode << " at " << o << "," << i << "," << j;
        }
  }
}

// A strided 1x1 convolution over many channels (m * c >= 2^19) runs as a stride-1 convolution of
// the pixels it reads, gathered per block (GE_CONV_SUBSAMPLE=0 turns it off): against a loop
// written here, two images, with bias, a residual Add and Relu, in sink and host mode. 31x29 at
// stride 2 (16x15 output: row blocks) and 9x13 at strides 2x3 (5x5: output-channel blocks).
void CheckStrided1x1(int64_t h, int64_t w, int64_t sh, int64_t sw) {
  const int64_t n = 2, c = 512, m = 1024, oh = (h - 1) / sh + 1, ow = (w - 1) / sw + 1;
  HostTensor x = Random(Shape({n, c, h, w}), 15), wt = Random(Shape({m, c, 1, 1}), 16), b = Random(Shape({m}), 17);
  HostTensor z = Random(Shape({n, m, oh, ow}), 18);
  for (const char* mode : {"sink", "host"}) {
    auto g = ConvAddRelu(x, z, wt, b,
                         {{"kernel_shape", std::vector<int64_t>{1, 1}}, {"strides", std::vector<int64_t>{sh, sw}}});
    std::vector<HostTensor> out;
    Status st = CompileAndRun(g, mode, {x, z}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].desc().shape.ToString(), Shape({n, m, oh, ow}).ToString());
    const float* xp = x.data_as<float>();
    const float* wp = wt.data_as<float>();
    for (int64_t img = 0; img < n; ++img)
      for (int64_t o = 0; o < m; ++o)
        for (int64_t i = 0; i < oh; ++i)
          for (int64_t j = 0; j < ow; ++j) {
            const int64_t at = ((img * m + o) * oh + i) * ow + j;
            double v = b.data_as<float>()[o] + z.data_as<float>()[at];
            for (int64_t ci = 0; ci < c; ++ci)
              v += double(xp[((img * c + ci) * h + i * sh) * w + j * sw]) * wp[o * c + ci];
            const double want = std::max(v, 0.0);
            ASSERT_NEAR(out[0].data_as<float>()[at], want, 1e-3 * (1 + std::fabs(want)))
                << mode << " " << h << "x" << w << " strides " << sh << "," << sw << " at " << img << "," << o << ","
                << i << "," << j;
          }
  }
}

// GE's own kernel for 1x1 convolutions of few pixels and large weights (ops/conv_own_gemm.h):
// 7x7x320 -> 208 (three panels of 64 and one of 16) and 6x6x256 -> 256 (36 pixels: five tiles of
// 7 and one of 1), two images, with bias, a residual Add and Relu, against a loop written here,
// in sink and host mode. On two cores the 7x7 output splits as 3 rows and a half each: block 0
// computes row 3's first two panels, block 1 its other two.
void CheckOwnGemm(int64_t hw, int64_t c, int64_t m) {
  const int64_t n = 2;
  HostTensor x = Random(Shape({n, c, hw, hw}), 31), wt = Random(Shape({m, c, 1, 1}), 32), b = Random(Shape({m}), 33);
  HostTensor z = Random(Shape({n, m, hw, hw}), 34);
  for (const char* mode : {"sink", "host"}) {
    auto g = ConvAddRelu(x, z, wt, b, {{"kernel_shape", std::vector<int64_t>{1, 1}}});
    std::vector<HostTensor> out;
    Status st = CompileAndRun(g, mode, {x, z}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].desc().shape.ToString(), Shape({n, m, hw, hw}).ToString());
    const float* xp = x.data_as<float>();
    const float* wp = wt.data_as<float>();
    for (int64_t img = 0; img < n; ++img)
      for (int64_t o = 0; o < m; ++o)
        for (int64_t q = 0; q < hw * hw; ++q) {
          const int64_t at = (img * m + o) * hw * hw + q;
          double v = b.data_as<float>()[o] + z.data_as<float>()[at];
          for (int64_t ci = 0; ci < c; ++ci) v += double(xp[(img * c + ci) * hw * hw + q]) * wp[o * c + ci];
          const double want = std::max(v, 0.0);
          ASSERT_NEAR(out[0].data_as<float>()[at], want, 1e-3 * (1 + std::fabs(want)))
              << mode << " " << hw << "x" << hw << "x" << c << " -> " << m << " at " << img << "," << o << "," << q;
        }
  }
}

TEST(FusedConvOwnGemm, MatchesADirectLoop) {
  CheckOwnGemm(7, 320, 208);
  CheckOwnGemm(6, 256, 256);
}

// The kernel's other activations, fused by conv-activation-fusion: Clip(0, 6) (mobilenet_v2) and
// SiLU as Sigmoid and Mul (efficientnet_b0), computed in registers; 7x7x320 -> 256, one image,
// against a loop written here, in sink and host mode.
TEST(FusedConvOwnGemm, ClipAndSiluMatchALoop) {
  const int64_t c = 320, m = 256, hw = 7;
  HostTensor x = Random(Shape({1, c, hw, hw}), 35), wt = Random(Shape({m, c, 1, 1}), 36), b = Random(Shape({m}), 37);
  HostTensor lo(DT_FLOAT, Shape(std::vector<int64_t>{})), hi(DT_FLOAT, Shape(std::vector<int64_t>{}));
  hi.mutable_data_as<float>()[0] = 6.f;
  for (const bool silu : {false, true})
    for (const char* mode : {"sink", "host"}) {
      auto g = std::make_shared<Graph>("g");
      ValueId xv = g->AddInput("x", x.desc()), wv = g->AddConstant("w", wt), bv = g->AddConstant("b", b);
      ValueId cv = g->AddValue("c"), y = g->AddValue("y");
      g->AddNode("conv", "Conv", {xv, wv, bv}, {cv}, {{"kernel_shape", std::vector<int64_t>{1, 1}}});
      if (silu) {
        ValueId sv = g->AddValue("s");
        g->AddNode("sigmoid", "Sigmoid", {cv}, {sv});
        g->AddNode("mul", "Mul", {cv, sv}, {y});
      } else {
        g->AddNode("clip", "Clip", {cv, g->AddConstant("lo", lo), g->AddConstant("hi", hi)}, {y});
      }
      g->AddOutput(y);
      std::vector<HostTensor> out;
      Status st = CompileAndRun(g, mode, {x}, &out);
      ASSERT_TRUE(st.ok()) << st.message();
      const float* xp = x.data_as<float>();
      const float* wp = wt.data_as<float>();
      for (int64_t o = 0; o < m; ++o)
        for (int64_t q = 0; q < hw * hw; ++q) {
          double v = b.data_as<float>()[o];
          for (int64_t ci = 0; ci < c; ++ci) v += double(xp[ci * hw * hw + q]) * wp[o * c + ci];
          const double want = silu ? v / (1 + std::exp(-v)) : std::min(std::max(v, 0.0), 6.0);
          ASSERT_NEAR(out[0].data_as<float>()[o * hw * hw + q], want, 1e-3 * (1 + std::fabs(want)))
              << mode << (silu ? " SiLU" : " Clip") << " at " << o << "," << q;
        }
    }
}

TEST(FusedConvStrided1x1, MatchesADirectLoop) {
  CheckStrided1x1(31, 29, 2, 2);
  CheckStrided1x1(9, 13, 2, 3);
}

// A squeeze-and-excitation product, Conv(a * g) with g one factor per image and channel, becomes
// the NHWC FusedConv's input scale S (conv-input-scale-fusion). S scales the weights where they
// are fewer than a block's input (20x20x32 -> 16 1x1; 24x24x16 -> 24 3x3, whose packed layout
// pads the 24 filters to 32) and the input rows where they are not (3x3x256 -> 256 1x1, in GE's
// own kernel, as is 14x14x512 -> 128 with S on the weights): against
// a loop written here, two images with their own gates, in sink and host mode.
void CheckInputScale(int64_t c, int64_t m, int64_t hw, int64_t k) {
  const int64_t n = 2, pad = k / 2;
  HostTensor x = Random(Shape({n, c, hw, hw}), 21), gate = Random(Shape({n, c, 1, 1}), 22);
  HostTensor wt = Random(Shape({m, c, k, k}), 23), b = Random(Shape({m}), 24);
  for (const char* mode : {"sink", "host"}) {
    auto g = std::make_shared<Graph>("g");
    ValueId xv = g->AddInput("x", x.desc()), gv = g->AddInput("gate", gate.desc());
    ValueId wv = g->AddConstant("w", wt), bv = g->AddConstant("b", b);
    // x through an identity 1x1 convolution first (exact: one product by 1 per output), so that
    // the product is in NHWC, between two NHWC convolutions, as in the networks.
    HostTensor eye(DT_FLOAT, Shape({c, c, 1, 1}));
    for (int64_t i = 0; i < c; ++i) eye.mutable_data_as<float>()[i * c + i] = 1.f;
    ValueId ev = g->AddConstant("eye", eye), av = g->AddValue("a");
    ValueId sv = g->AddValue("s"), y = g->AddValue("y");
    g->AddNode("copy", "Conv", {xv, ev}, {av}, {{"kernel_shape", std::vector<int64_t>{1, 1}}});
    g->AddNode("mul", "Mul", {av, gv}, {sv});
    g->AddNode("conv", "Conv", {sv, wv, bv}, {y},
               {{"kernel_shape", std::vector<int64_t>{k, k}}, {"pads", std::vector<int64_t>{pad, pad, pad, pad}}});
    g->AddOutput(y);
    std::vector<HostTensor> out;
    Status st = CompileAndRun(g, mode, {x, gate}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].desc().shape.ToString(), Shape({n, m, hw, hw}).ToString());
    const float* xp = x.data_as<float>();
    const float* gp = gate.data_as<float>();
    const float* wp = wt.data_as<float>();
    for (int64_t img = 0; img < n; ++img)
      for (int64_t o = 0; o < m; ++o)
        for (int64_t i = 0; i < hw; ++i)
          for (int64_t j = 0; j < hw; ++j) {
            double v = b.data_as<float>()[o];
            for (int64_t ci = 0; ci < c; ++ci)
              for (int64_t ki = 0; ki < k; ++ki)
                for (int64_t kj = 0; kj < k; ++kj) {
                  const int64_t ii = i + ki - pad, jj = j + kj - pad;
                  if (ii < 0 || ii >= hw || jj < 0 || jj >= hw) continue;
                  v += double(xp[((img * c + ci) * hw + ii) * hw + jj]) * gp[img * c + ci] *
                       wp[((o * c + ci) * k + ki) * k + kj];
                }
            const int64_t at = ((img * m + o) * hw + i) * hw + j;
            ASSERT_NEAR(out[0].data_as<float>()[at], v, 1e-3 * (1 + std::fabs(v)))
                << mode << " " << c << " -> " << m << " " << k << "x" << k << " at " << img << "," << o << "," << i
                << "," << j;
          }
  }
}

TEST(FusedConvInputScale, MatchesADirectLoop) {
  CheckInputScale(32, 16, 20, 1);
  CheckInputScale(16, 24, 24, 3);
  CheckInputScale(256, 256, 3, 1);   // GE's own kernel: S on the input
  CheckInputScale(512, 128, 14, 1);  // GE's own kernel: S on the weights
}

// Float ReduceSum / Mean / Max / Min with the reduced dims after the kept ones (one contiguous run
// per output), before them (rows of kept elements), everywhere, or between kept dims (the generic
// walk), with dims of size 1 around, against a loop over every element written here; a NaN in
// the input shows in its output of Max and Min.
void CheckReduce(const std::string& op, const std::vector<int64_t>& dims, const std::vector<int64_t>& axes) {
  HostTensor x = Random(Shape(dims), 21);
  x.mutable_data_as<float>()[3] = std::nanf("");
  const int64_t rank = static_cast<int64_t>(dims.size());
  int64_t out_numel = 1;
  std::vector<int64_t> out_dims;
  for (int64_t d = 0; d < rank; ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
    out_dims.push_back(reduced ? 1 : dims[d]);
    out_numel *= out_dims.back();
  }
  std::vector<double> want(static_cast<size_t>(out_numel), op == "ReduceMax"   ? -INFINITY
                                                           : op == "ReduceMin" ? INFINITY
                                                                               : 0.0);
  std::vector<int64_t> count(static_cast<size_t>(out_numel), 0);
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    int64_t rest = i, o = 0, scale = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      const int64_t idx = rest % dims[d];
      rest /= dims[d];
      o += (out_dims[d] == 1 ? 0 : idx) * scale;
      scale *= out_dims[d];
    }
    const double v = x.data_as<float>()[i];
    double& w = want[o];
    w = op == "ReduceMax"   ? (std::isnan(v) || std::isnan(w) ? NAN : std::max(w, v))
        : op == "ReduceMin" ? (std::isnan(v) || std::isnan(w) ? NAN : std::min(w, v))
                            : w + v;
    ++count[o];
  }
  for (const char* mode : {"sink", "host"}) {
    auto g = std::make_shared<Graph>("g");
    ValueId xv = g->AddInput("x", x.desc()), y = g->AddValue("y");
    if (op == "ReduceSum") {
      HostTensor a(DT_INT64, Shape({static_cast<int64_t>(axes.size())}));
      for (size_t k = 0; k < axes.size(); ++k) a.mutable_data_as<int64_t>()[k] = axes[k];
      g->AddNode("r", op, {xv, g->AddConstant("axes", a)}, {y});
    } else {
      g->AddNode("r", op, {xv}, {y}, {{"axes", axes}});
    }
    g->AddOutput(y);
    std::vector<HostTensor> out;
    Status st = CompileAndRun(g, mode, {x}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].NumElements(), out_numel);
    for (int64_t o = 0; o < out_numel; ++o) {
      const double w = op == "ReduceMean" ? want[o] / static_cast<double>(count[o]) : want[o];
      const float got = out[0].data_as<float>()[o];
      if (std::isnan(w)) {
        EXPECT_TRUE(std::isnan(got)) << op << " " << mode << " output " << o;
      } else {
        EXPECT_NEAR(got, w, 1e-5 * (1 + std::fabs(w))) << op << " " << mode << " output " << o;
      }
    }
  }
}

TEST(ReduceForms, MatchALoopOverEveryElement) {
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"}) {
    CheckReduce(op, {2, 3, 5, 7}, {2, 3});        // runs of 35
    CheckReduce(op, {1, 64, 1, 37}, {3});         // runs of 37 among dims of size 1
    CheckReduce(op, {2, 3, 5, 7}, {0, 1, 2, 3});  // one run
    CheckReduce(op, {5, 7, 1, 19}, {0, 1});       // rows of 19
    CheckReduce(op, {2, 3, 5, 7}, {1});           // between kept dims
  }
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

// out[n, m, i, j] = max(0, b[m] + sum_c w[m, c, ki, kj] * in[n, c, i + ki - pad, j + kj - pad]).
std::vector<double> ConvReluLoop(const std::vector<double>& in, int64_t n, int64_t c, int64_t h, int64_t w,
                                 const HostTensor& wt, const HostTensor& b, int64_t k, int64_t pad) {
  const int64_t m = wt.shape().GetDim(0);
  std::vector<double> out(static_cast<size_t>(n * m * h * w));
  for (int64_t img = 0; img < n; ++img)
    for (int64_t o = 0; o < m; ++o)
      for (int64_t i = 0; i < h; ++i)
        for (int64_t j = 0; j < w; ++j) {
          double v = b.data_as<float>()[o];
          for (int64_t ci = 0; ci < c; ++ci)
            for (int64_t ki = 0; ki < k; ++ki)
              for (int64_t kj = 0; kj < k; ++kj) {
                const int64_t ii = i + ki - pad, jj = j + kj - pad;
                if (ii < 0 || ii >= h || jj < 0 || jj >= w) continue;
                v += in[((img * c + ci) * h + ii) * w + jj] * wt.data_as<float>()[((o * c + ci) * k + ki) * k + kj];
              }
          out[((img * m + o) * h + i) * w + j] = std::max(v, 0.0);
        }
  return out;
}

// Two SqueezeNet Fire tails (concat-conv-split): a = relu(conv1x1(x)), e = relu(conv3x3(x)) with
// 72 and 40 channels (the NHWC pool takes 64 channels at a time, then 16, then single ones);
// y1 = relu(conv1x1(maxpool3x3s2pad1(concat(a, e)))) and y2 = relu(conv1x1(concat(e, a))), against
// loops written here, in sink and host mode. At -O2 neither Concat is left.
TEST(ConcatConvSplit, FireModulesMatchLoops) {
  const int64_t n = 2, c = 8, h = 9, w = 11, ca = 72, ce = 40, cc = ca + ce, m = 16, ph = 5, pw = 6;
  HostTensor x = Random(Shape({n, c, h, w}), 31);
  HostTensor wa = Random(Shape({ca, c, 1, 1}), 32), ba = Random(Shape({ca}), 33);
  HostTensor we = Random(Shape({ce, c, 3, 3}), 34), be = Random(Shape({ce}), 35);
  HostTensor w1 = Random(Shape({m, cc, 1, 1}), 36), b1 = Random(Shape({m}), 37);
  HostTensor w2 = Random(Shape({m, cc, 1, 1}), 38), b2 = Random(Shape({m}), 39);
  std::vector<double> xd(x.data_as<float>(), x.data_as<float>() + x.NumElements());
  const std::vector<double> a = ConvReluLoop(xd, n, c, h, w, wa, ba, 1, 0);
  const std::vector<double> e = ConvReluLoop(xd, n, c, h, w, we, be, 3, 1);
  auto concat = [&](const std::vector<double>& p, int64_t cp, const std::vector<double>& q, int64_t cq) {
    std::vector<double> out;
    for (int64_t img = 0; img < n; ++img) {
      out.insert(out.end(), p.begin() + img * cp * h * w, p.begin() + (img + 1) * cp * h * w);
      out.insert(out.end(), q.begin() + img * cq * h * w, q.begin() + (img + 1) * cq * h * w);
    }
    return out;
  };
  const std::vector<double> c1 = concat(a, ca, e, ce), c2 = concat(e, ce, a, ca);
  std::vector<double> pooled(static_cast<size_t>(n * cc * ph * pw), -INFINITY);
  for (int64_t img = 0; img < n * cc; ++img)
    for (int64_t i = 0; i < ph; ++i)
      for (int64_t j = 0; j < pw; ++j)
        for (int64_t ii = 2 * i - 1; ii <= 2 * i + 1; ++ii)
          for (int64_t jj = 2 * j - 1; jj <= 2 * j + 1; ++jj)
            if (ii >= 0 && ii < h && jj >= 0 && jj < w)
              pooled[(img * ph + i) * pw + j] = std::max(pooled[(img * ph + i) * pw + j], c1[(img * h + ii) * w + jj]);
  const std::vector<double> y1 = ConvReluLoop(pooled, n, cc, ph, pw, w1, b1, 1, 0);
  const std::vector<double> y2 = ConvReluLoop(c2, n, cc, h, w, w2, b2, 1, 0);

  for (const char* mode : {"sink", "host"}) {
    auto g = std::make_shared<Graph>("g");
    ValueId xv = g->AddInput("x", x.desc());
    auto conv_relu = [&](const std::string& name, ValueId in, const HostTensor& wt, const HostTensor& b,
                         AttrMap attrs) {
      ValueId cv = g->AddValue(name + "_c"), y = g->AddValue(name);
      g->AddNode(name + "_conv", "Conv", {in, g->AddConstant(name + "_w", wt), g->AddConstant(name + "_b", b)}, {cv},
                 std::move(attrs));
      g->AddNode(name + "_relu", "Relu", {cv}, {y});
      return y;
    };
    ValueId av = conv_relu("a", xv, wa, ba, {});
    ValueId ev = conv_relu("e", xv, we, be, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    ValueId c1v = g->AddValue("c1"), c2v = g->AddValue("c2"), pv = g->AddValue("p");
    g->AddNode("cat1", "Concat", {av, ev}, {c1v}, {{"axis", int64_t{1}}});
    g->AddNode("pool", "MaxPool", {c1v}, {pv},
               {{"kernel_shape", std::vector<int64_t>{3, 3}},
                {"strides", std::vector<int64_t>{2, 2}},
                {"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    g->AddNode("cat2", "Concat", {ev, av}, {c2v}, {{"axis", int64_t{1}}});
    g->AddOutput(conv_relu("y1", pv, w1, b1, {}));
    g->AddOutput(conv_relu("y2", c2v, w2, b2, {}));
    ModelOptions opt;
    opt.mode = mode;
    std::unique_ptr<Model> model;
    Status st = Model::FromGraph(g, opt, &model);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(model->op_counts_after().count("Concat"), 0u) << mode << ": " << model->optimizer_report();
    std::vector<HostTensor> out;
    st = model->Run({x}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out.size(), 2u);
    for (int k = 0; k < 2; ++k) {
      const std::vector<double>& want = k == 0 ? y1 : y2;
      ASSERT_EQ(out[k].NumElements(), static_cast<int64_t>(want.size())) << mode;
      for (size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(out[k].data_as<float>()[i], want[i], 1e-4 * (1 + std::fabs(want[i])))
            << mode << " y" << k + 1 << " at " << i;
    }
  }
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

// A 2-D depthwise Conv (NCHW, the kernel run where the layout pass does not apply: at -O0 here)
// against a loop written here: strides, asymmetric pads, dilations, with and without bias, in
// sink and host mode.
void CheckDepthwise(int64_t c, int64_t h, int64_t w, int64_t k, int64_t s, int64_t d, std::vector<int64_t> pads,
                    bool with_bias) {
  const int64_t n = 2, kh_eff = (k - 1) * d + 1;
  const int64_t oh = (h + pads[0] + pads[2] - kh_eff) / s + 1, ow = (w + pads[1] + pads[3] - kh_eff) / s + 1;
  HostTensor x = Random(Shape({n, c, h, w}), 41), wt = Random(Shape({c, 1, k, k}), 42), b = Random(Shape({c}), 43);
  std::vector<double> want(static_cast<size_t>(n * c * oh * ow));
  for (int64_t img = 0; img < n; ++img)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double v = with_bias ? b.data_as<float>()[ch] : 0.0;
          for (int64_t ki = 0; ki < k; ++ki)
            for (int64_t kj = 0; kj < k; ++kj) {
              const int64_t ii = i * s - pads[0] + ki * d, jj = j * s - pads[1] + kj * d;
              if (ii < 0 || ii >= h || jj < 0 || jj >= w) continue;
              v += double(x.data_as<float>()[((img * c + ch) * h + ii) * w + jj]) *
                   wt.data_as<float>()[(ch * k + ki) * k + kj];
            }
          want[((img * c + ch) * oh + i) * ow + j] = v;
        }
  for (const char* mode : {"sink", "host"}) {
    auto g = std::make_shared<Graph>("g");
    ValueId xv = g->AddInput("x", x.desc()), y = g->AddValue("y");
    std::vector<ValueId> in = {xv, g->AddConstant("w", wt)};
    if (with_bias) in.push_back(g->AddConstant("b", b));
    g->AddNode("dw", "Conv", in, {y},
               {{"group", c},
                {"kernel_shape", std::vector<int64_t>{k, k}},
                {"strides", std::vector<int64_t>{s, s}},
                {"dilations", std::vector<int64_t>{d, d}},
                {"pads", pads}});
    g->AddOutput(y);
    ModelOptions opt;
    opt.mode = mode;
    opt.opt_level = 0;
    std::unique_ptr<Model> model;
    Status st = Model::FromGraph(g, opt, &model);
    ASSERT_TRUE(st.ok()) << st.message();
    std::vector<HostTensor> out;
    st = model->Run({x}, &out);
    ASSERT_TRUE(st.ok()) << st.message();
    ASSERT_EQ(out[0].desc().shape.ToString(), Shape({n, c, oh, ow}).ToString());
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_NEAR(out[0].data_as<float>()[i], want[i], 1e-4 * (1 + std::fabs(want[i])))
          << mode << " k" << k << " s" << s << " d" << d << " at " << i;
  }
}

TEST(DepthwiseConvNchw, MatchesALoop) {
  CheckDepthwise(5, 9, 11, 3, 1, 1, {1, 1, 1, 1}, true);
  CheckDepthwise(3, 10, 13, 3, 2, 1, {0, 1, 1, 0}, false);
  CheckDepthwise(4, 12, 9, 3, 1, 2, {2, 2, 2, 2}, true);
  CheckDepthwise(2, 7, 7, 5, 3, 1, {2, 1, 0, 2}, true);
}

}  // namespace
}  // namespace ge
