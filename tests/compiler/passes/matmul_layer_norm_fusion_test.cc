// MatMul + LayerNormalization fusion: before/after in the textual IR, and the cases where it must
// not fire.

#include "pass_test_util.h"

namespace ge {
namespace {

const char* kHead = R"(graph g
input a: float32[2, 3]
input z: float32[2, 4]
const w: float32[3, 4] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
const g4: float32[4] = [1, 1, 2, 2]
const b4: float32[4] = [0, 1, 0, 1]
const s3: int64[3] = [1, 2, 4]
)";

std::string Fuse(const std::string& body, bool* changed = nullptr) {
  return test::RunPass("matmul-layer-norm-fusion", kHead + body, changed);
}

// kHead without the constant that nobody reads after the pass (the printer leaves those out).
std::string HeadWithout(const std::string& line) {
  std::string h = kHead;
  return h.erase(h.find(line), line.size());
}

const char* kMm = R"({activation="", activation_params=f[]})";

// The post-norm block: FusedMatMul with its residual Z, then the norm over the last axis.
TEST(MatMulLayerNormFusionTest, NormOfTheOutputFuses) {
  bool changed = false;
  EXPECT_EQ(Fuse(std::string("node mm: y: float32[2, 4] = FusedMatMul(a, w, _, z) ") + kMm +
                     "\nnode ln: out: float32[2, 4] = LayerNormalization(y, g4, b4) {epsilon=0.001}\noutput out\n",
                 &changed),
            HeadWithout("const s3: int64[3] = [1, 2, 4]\n") +
                "node mm: out: float32[2, 4] = FusedMatMul(a, w, _, z, g4, b4) {activation=\"\", "
                "activation_params=f[], layer_norm=1, layer_norm_epsilon=0.001}\noutput out\n");
  EXPECT_TRUE(changed);
}

// Through a Reshape that keeps the last dim: the Reshape then writes the norm's output.
TEST(MatMulLayerNormFusionTest, NormBehindAReshapeFuses) {
  EXPECT_EQ(Fuse(std::string("node mm: y: float32[2, 4] = FusedMatMul(a, w) ") + kMm +
                 "\nnode r: v: float32[1, 2, 4] = Reshape(y, s3)"
                 "\nnode ln: out: float32[1, 2, 4] = LayerNormalization(v, g4)\noutput out\n"),
            HeadWithout("const b4: float32[4] = [0, 1, 0, 1]\n") +
                "node mm: y: float32[2, 4] = FusedMatMul(a, w, _, _, g4, _) {activation=\"\", "
                "activation_params=f[], layer_norm=1, layer_norm_epsilon=1e-05}"
                "\nnode r: out: float32[1, 2, 4] = Reshape(y, s3)\noutput out\n");
}

TEST(MatMulLayerNormFusionTest, MustNotFire) {
  // The norm's Mean output is read; a norm over axis 0; y read twice; y a graph output.
  const std::string body =
      std::string("node mm1: y1: float32[2, 4] = FusedMatMul(a, w) ") + kMm +
      "\nnode ln1: o1: float32[2, 4], m1: float32[2, 1] = LayerNormalization(y1, g4)"
      "\nnode mm2: y2: float32[2, 4] = FusedMatMul(a, w) " +
      kMm +
      "\nnode ln2: o2: float32[2, 4] = LayerNormalization(y2, g4) {axis=0}"
      "\nnode mm3: y3: float32[2, 4] = FusedMatMul(a, w) " +
      kMm +
      "\nnode ln3: o3: float32[2, 4] = LayerNormalization(y3, g4)"
      "\nnode add: o4: float32[2, 4] = Add(y3, z)"
      "\nnode mm5: y5: float32[2, 4] = FusedMatMul(a, w) " +
      kMm + "\nnode ln5: o5: float32[2, 4] = LayerNormalization(y5, g4)\noutput o1, m1, o2, o3, o4, y5, o5\n";
  bool changed = true;
  const std::string out = Fuse(body, &changed);
  EXPECT_FALSE(changed) << out;
  EXPECT_EQ(out.find("layer_norm="), std::string::npos) << out;
}

}  // namespace
}  // namespace ge
