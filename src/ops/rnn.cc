// The recurrent ops RNN, GRU and LSTM (forward, reverse, bidirectional; sequence_lens,
// initial_h/c, peepholes, layout, clip, activations with alpha/beta, GRU linear_before_reset,
// LSTM input_forget). define: one OpDef per op. create: output shapes and a tiling record of
// dims, flags and activation functions. run: one block; per direction one GEMM X*W^T for all
// steps, then per step H*R^T and the cell's elementwise update.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "ops/gemm_util.h"
#include "ops/op_util.h"

namespace ge::ops_rnn {
using namespace ge::ops_util;

enum Cell : int32_t { kRnn, kGru, kLstm };
enum Act : int32_t {
  kSigmoid,
  kTanh,
  kRelu,
  kAffine,
  kLeakyRelu,
  kThresholdedRelu,
  kScaledTanh,
  kHardSigmoid,
  kElu,
  kSoftsign,
  kSoftplus
};
// Attribute order is alphabetical per op; indices differ, so they are looked up by name.
enum In { kX, kW, kR, kB, kSeqLens, kInitH, kInitC, kP };
constexpr int kMaxActs = 6;

struct ActFn {
  int32_t kind;
  float alpha, beta;
};

struct RnnTiling {
  int32_t cell, dirs, reverse, layout, gates;
  int32_t has_b, has_seq_lens, has_init_h, has_init_c, has_p, has_clip, linear_before_reset, input_forget;
  int32_t num_inputs;
  float clip;
  int64_t seq, batch, input, hidden;
  ActFn acts[kMaxActs];  // per direction: cell's activations (f, g, h)
};

int Gates(int32_t cell) { return cell == kLstm ? 4 : cell == kGru ? 3 : 1; }
int ActsPerDir(int32_t cell) { return cell == kLstm ? 3 : cell == kGru ? 2 : 1; }
int NumInputs(int32_t cell) { return cell == kLstm ? 8 : 6; }

size_t AttrIndex(const gert::RuntimeAttrs* a, const char* name) {
  for (size_t i = 0; a && i < a->GetAttrNum(); ++i)
    if (a->GetName(i) == name) return i;
  return SIZE_MAX;
}

bool ParseAct(std::string name, ActFn* f) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  static const std::pair<const char*, ActFn> kTable[] = {{"sigmoid", {kSigmoid, 0, 0}},
                                                         {"tanh", {kTanh, 0, 0}},
                                                         {"relu", {kRelu, 0, 0}},
                                                         {"affine", {kAffine, 1, 0}},
                                                         {"leakyrelu", {kLeakyRelu, 0.01f, 0}},
                                                         {"thresholdedrelu", {kThresholdedRelu, 1, 0}},
                                                         {"scaledtanh", {kScaledTanh, 1, 1}},
                                                         {"hardsigmoid", {kHardSigmoid, 0.2f, 0.5f}},
                                                         {"elu", {kElu, 1, 0}},
                                                         {"softsign", {kSoftsign, 0, 0}},
                                                         {"softplus", {kSoftplus, 0, 0}}};
  for (const auto& [n, v] : kTable)
    if (name == n) return (*f = v), true;
  return false;
}

bool UsesAlpha(int32_t k) {
  return k == kAffine || k == kLeakyRelu || k == kThresholdedRelu || k == kScaledTanh || k == kHardSigmoid || k == kElu;
}
bool UsesBeta(int32_t k) { return k == kAffine || k == kScaledTanh || k == kHardSigmoid; }

// Reads hidden_size, direction, layout and the activations into t; false on bad attributes.
bool ReadAttrs(const gert::RuntimeAttrs* a, int32_t cell, RnnTiling* t) {
  t->cell = cell;
  t->gates = Gates(cell);
  t->num_inputs = NumInputs(cell);
  std::string dir = AttrStr(a, AttrIndex(a, "direction"), "forward");
  if (dir != "forward" && dir != "reverse" && dir != "bidirectional") return false;
  t->dirs = dir == "bidirectional" ? 2 : 1;
  t->reverse = dir == "reverse";
  t->layout = static_cast<int32_t>(AttrInt(a, AttrIndex(a, "layout"), 0));
  t->hidden = AttrInt(a, AttrIndex(a, "hidden_size"), 0);
  size_t clip_i = AttrIndex(a, "clip");
  t->has_clip = a && a->IsSet(clip_i);
  t->clip = AttrFloat(a, clip_i, 0.f);
  t->linear_before_reset = static_cast<int32_t>(AttrInt(a, AttrIndex(a, "linear_before_reset"), 0));
  t->input_forget = static_cast<int32_t>(AttrInt(a, AttrIndex(a, "input_forget"), 0));
  const std::vector<std::string>* names = a ? a->GetListStr(AttrIndex(a, "activations")) : nullptr;
  std::vector<std::string> acts = names && !names->empty() ? *names : std::vector<std::string>{};
  int per = ActsPerDir(cell);
  if (acts.empty()) {
    static const char* kDefaults[3][3] = {{"Tanh"}, {"Sigmoid", "Tanh"}, {"Sigmoid", "Tanh", "Tanh"}};
    for (int d = 0; d < t->dirs; ++d)
      for (int i = 0; i < per; ++i) acts.push_back(kDefaults[cell][i]);
  }
  if (static_cast<int>(acts.size()) != per * t->dirs) return false;
  std::vector<float> alphas = AttrFloats(a, AttrIndex(a, "activation_alpha"));
  std::vector<float> betas = AttrFloats(a, AttrIndex(a, "activation_beta"));
  size_t ai = 0, bi = 0;
  for (size_t i = 0; i < acts.size(); ++i) {
    if (!ParseAct(acts[i], &t->acts[i])) return false;
    if (UsesAlpha(t->acts[i].kind) && ai < alphas.size()) t->acts[i].alpha = alphas[ai++];
    if (UsesBeta(t->acts[i].kind) && bi < betas.size()) t->acts[i].beta = betas[bi++];
  }
  return t->hidden > 0 && t->hidden < (int64_t{1} << 31) && (t->layout == 0 || t->layout == 1);
}

bool ReadDims(const gert::Shape& x, RnnTiling* t) {
  if (x.GetDimNum() != 3) return false;
  t->seq = x.GetDim(t->layout ? 1 : 0);
  t->batch = x.GetDim(t->layout ? 0 : 1);
  t->input = x.GetDim(2);
  return true;
}

ge::graphStatus InferShapeCell(gert::InferShapeContext* ctx, int32_t cell) {
  RnnTiling t{};
  const gert::Shape* x = ctx->GetInputShape(kX);
  if (x == nullptr || !ReadAttrs(ctx->GetAttrs(), cell, &t) || !ReadDims(*x, &t)) return ge::GRAPH_FAILED;
  std::vector<int64_t> y = t.layout ? std::vector<int64_t>{t.batch, t.seq, t.dirs, t.hidden}
                                    : std::vector<int64_t>{t.seq, t.dirs, t.batch, t.hidden};
  std::vector<int64_t> yh =
      t.layout ? std::vector<int64_t>{t.batch, t.dirs, t.hidden} : std::vector<int64_t>{t.dirs, t.batch, t.hidden};
  for (size_t o = 0; o < ctx->GetComputeNodeOutputNum(); ++o)
    if (ctx->GetOutputShape(o)) SetDims(ctx->GetOutputShape(o), o == 0 ? y : yh);
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx) {
  for (size_t o = 0; o < ctx->GetComputeNodeOutputNum(); ++o) ctx->SetOutputDataType(o, ctx->GetInputDataType(kX));
  return ge::GRAPH_SUCCESS;
}

// Workspace floats: X*W^T for all steps, H*R^T, H, C, and one gate row per batch.
int64_t WorkspaceFloats(const RnnTiling& t) {
  int64_t gh = t.gates * t.hidden;
  return t.seq * t.batch * gh + t.batch * gh + 2 * t.batch * t.hidden + gh;
}

ge::graphStatus TilingCell(gert::TilingContext* ctx, int32_t cell) {
  RnnTiling t{};
  if (ctx->GetInputDesc(kX)->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
  if (!ReadAttrs(ctx->GetAttrs(), cell, &t) || !ReadDims(ctx->GetInputShape(kX)->GetStorageShape(), &t))
    return ge::GRAPH_FAILED;
  auto present = [&](int i) { return i < t.num_inputs && ctx->GetInputShape(i) != nullptr; };
  t.has_b = present(kB);
  t.has_seq_lens = present(kSeqLens);
  t.has_init_h = present(kInitH);
  t.has_init_c = cell == kLstm && present(kInitC);
  t.has_p = cell == kLstm && present(kP);
  if (t.has_seq_lens && ctx->GetInputDesc(kSeqLens)->GetDataType() != ge::DT_INT32) return ge::GRAPH_FAILED;
  // The kernel reads every weight and state by these dims: each input must have them exactly.
  const int64_t gh = t.gates * t.hidden;
  const std::vector<int64_t> h_dims =
      t.layout ? std::vector<int64_t>{t.batch, t.dirs, t.hidden} : std::vector<int64_t>{t.dirs, t.batch, t.hidden};
  const struct {
    int in;
    bool used;
    const char* name;
    std::vector<int64_t> dims;
  } expected[] = {{kW, true, "W", {t.dirs, gh, t.input}},
                  {kR, true, "R", {t.dirs, gh, t.hidden}},
                  {kB, t.has_b != 0, "B", {t.dirs, 2 * gh}},
                  {kSeqLens, t.has_seq_lens != 0, "sequence_lens", {t.batch}},
                  {kInitH, t.has_init_h != 0, "initial_h", h_dims},
                  {kInitC, t.has_init_c != 0, "initial_c", h_dims},
                  {kP, t.has_p != 0, "P", {t.dirs, 3 * t.hidden}}};
  for (const auto& e : expected) {
    if (!e.used) continue;
    const gert::Shape& got = ctx->GetInputShape(e.in)->GetStorageShape();
    bool same = got.GetDimNum() == e.dims.size();
    for (size_t i = 0; same && i < e.dims.size(); ++i) same = got.GetDim(i) == e.dims[i];
    if (!same) {
      std::string want, have;
      for (int64_t d : e.dims) want += (want.empty() ? "" : ", ") + std::to_string(d);
      for (size_t i = 0; i < got.GetDimNum(); ++i) have += (i ? ", " : "") + std::to_string(got.GetDim(i));
      return InferFail(std::string(e.name) + " has shape [" + have + "], expected [" + want +
                       "] (hidden_size " + std::to_string(t.hidden) + ")");
    }
  }
  ctx->SetBlockDim(1);
  ctx->GetWorkspaceSizes(1)[0] = static_cast<size_t>(WorkspaceFloats(t)) * sizeof(float);
  return SetTiling(ctx, t);
}

// ---- run ---------------------------------------------------------------------------------------
float Apply(const ActFn& f, float x) {
  switch (f.kind) {
    case kSigmoid: return 1.f / (1.f + std::exp(-x));
    case kTanh: return std::tanh(x);
    case kRelu: return std::max(0.f, x);
    case kAffine: return f.alpha * x + f.beta;
    case kLeakyRelu: return x >= 0 ? x : f.alpha * x;
    case kThresholdedRelu: return x > f.alpha ? x : 0.f;
    case kScaledTanh: return f.alpha * std::tanh(f.beta * x);
    case kHardSigmoid: return std::clamp(f.alpha * x + f.beta, 0.f, 1.f);
    case kElu: return x >= 0 ? x : f.alpha * (std::exp(x) - 1);
    case kSoftsign: return x / (1 + std::fabs(x));
    default: return std::log1p(std::exp(x));
  }
}

struct DirArgs {
  const float *w, *r, *wb, *rb, *p, *h0, *c0;
  const int32_t* seq_lens;
  const ActFn* acts;
  float *y, *yh, *yc;
  int d;
};

// Address of (t, d, b) in Y or (d, b) in Y_h/Y_c/initial states for the layout.
int64_t YOff(const RnnTiling& t, int64_t step, int d, int64_t b) {
  return t.layout ? ((b * t.seq + step) * t.dirs + d) * t.hidden : ((step * t.dirs + d) * t.batch + b) * t.hidden;
}
int64_t HOff(const RnnTiling& t, int d, int64_t b) {
  return t.layout ? (b * t.dirs + d) * t.hidden : (d * t.batch + b) * t.hidden;
}

// One cell update for batch row b: g = X*W^T + bias (in), hr = H*R^T; updates h (and c).
void CellStep(const RnnTiling& t, const DirArgs& a, float* g, const float* hr, float* h, float* c) {
  int64_t H = t.hidden;
  auto f = [&](int i, float v) { return Apply(a.acts[i], t.has_clip ? std::clamp(v, -t.clip, t.clip) : v); };
  if (t.cell == kRnn) {
    for (int64_t j = 0; j < H; ++j) h[j] = f(0, g[j] + hr[j] + (a.rb ? a.rb[j] : 0.f));
  } else if (t.cell == kGru) {  // gates z, r, h
    for (int64_t j = 0; j < H; ++j) {
      float rbz = a.rb ? a.rb[j] : 0.f, rbr = a.rb ? a.rb[H + j] : 0.f, rbh = a.rb ? a.rb[2 * H + j] : 0.f;
      float z = f(0, g[j] + hr[j] + rbz);
      float r = f(0, g[H + j] + hr[H + j] + rbr);
      // linear_before_reset: r * (H*Rh + Rbh); otherwise (r * H)*Rh, computed by the caller into hr.
      float hh = t.linear_before_reset ? f(1, g[2 * H + j] + r * (hr[2 * H + j] + rbh))
                                       : f(1, g[2 * H + j] + hr[2 * H + j] + rbh);
      g[j] = z;
      g[2 * H + j] = hh;
      g[H + j] = r;
    }
    for (int64_t j = 0; j < H; ++j) h[j] = (1 - g[j]) * g[2 * H + j] + g[j] * h[j];
  } else {  // gates i, o, f, c
    const float* p = a.p;
    for (int64_t j = 0; j < H; ++j) {
      auto rb = [&](int k) { return a.rb ? a.rb[k * H + j] : 0.f; };
      float gi = f(0, g[j] + hr[j] + rb(0) + (p ? p[j] * c[j] : 0.f));
      float gf = t.input_forget ? 1 - gi : f(0, g[2 * H + j] + hr[2 * H + j] + rb(2) + (p ? p[2 * H + j] * c[j] : 0.f));
      float gc = f(1, g[3 * H + j] + hr[3 * H + j] + rb(3));
      c[j] = gf * c[j] + gi * gc;
      float go = f(0, g[H + j] + hr[H + j] + rb(1) + (p ? p[H + j] * c[j] : 0.f));
      h[j] = go * Apply(a.acts[2], c[j]);
    }
  }
}

void RunDirection(const RnnTiling& t, const float* x, const DirArgs& a, bool reverse, float* ws) {
  int64_t H = t.hidden, G = t.gates, gh = G * H, B = t.batch;
  float* xw = ws;
  float* hr = xw + t.seq * B * gh;
  float* h = hr + B * gh;
  float* c = h + B * H;
  float* tmp = c + B * H;
  // Rows of X are (t, b) for layout 0 and (b, t) for layout 1; xw keeps that row order.
  Sgemm(false, true, t.seq * B, gh, t.input, 1.f, x, t.input, a.w, t.input, 0.f, xw, gh);
  for (int64_t r = 0; a.wb && r < t.seq * B; ++r)
    for (int64_t j = 0; j < gh; ++j) xw[r * gh + j] += a.wb[j];
  for (int64_t b = 0; b < B; ++b)
    for (int64_t j = 0; j < H; ++j) {
      h[b * H + j] = a.h0 ? a.h0[HOff(t, a.d, b) + j] : 0.f;
      c[b * H + j] = a.c0 ? a.c0[HOff(t, a.d, b) + j] : 0.f;
    }
  for (int64_t s = 0; s < t.seq; ++s) {
    if (t.cell == kGru && !t.linear_before_reset) {
      // z and r need H*R^T; the candidate needs (r * H)*Rh^T, so it is computed per row below.
      Sgemm(false, true, B, 2 * H, H, 1.f, h, H, a.r, H, 0.f, hr, gh);
    } else {
      Sgemm(false, true, B, gh, H, 1.f, h, H, a.r, H, 0.f, hr, gh);
    }
    for (int64_t b = 0; b < B; ++b) {
      int64_t len = a.seq_lens ? std::min<int64_t>(a.seq_lens[b], t.seq) : t.seq;
      if (s >= len) continue;
      int64_t step = reverse ? len - 1 - s : s;
      int64_t row = t.layout ? b * t.seq + step : step * B + b;
      std::memcpy(tmp, xw + row * gh, gh * sizeof(float));
      float* hb = h + b * H;
      if (t.cell == kGru && !t.linear_before_reset) {
        float* rh = hr + b * gh + 2 * H;
        std::vector<float> rhh(H);
        for (int64_t j = 0; j < H; ++j) {
          float v = tmp[H + j] + hr[b * gh + H + j] + (a.rb ? a.rb[H + j] : 0.f);
          float r = Apply(a.acts[0], t.has_clip ? std::clamp(v, -t.clip, t.clip) : v);
          rhh[j] = r * hb[j];
        }
        Sgemm(false, true, 1, H, H, 1.f, rhh.data(), H, a.r + 2 * H * H, H, 0.f, rh, H);
      }
      CellStep(t, a, tmp, hr + b * gh, hb, c + b * H);
      if (a.y) std::memcpy(a.y + YOff(t, step, a.d, b), hb, H * sizeof(float));
    }
  }
  for (int64_t b = 0; b < B; ++b) {
    if (a.yh) std::memcpy(a.yh + HOff(t, a.d, b), h + b * H, H * sizeof(float));
    if (a.yc) std::memcpy(a.yc + HOff(t, a.d, b), c + b * H, H * sizeof(float));
  }
}

void Kernel(const aclrtKernelArgs* args) {
  const auto& t = GetTiling<RnnTiling>(args);
  if (args->blockIdx != 0) return;
  auto in = [&](int i) { return static_cast<const float*>(args->addrs[i]); };
  int n_out = t.cell == kLstm ? 3 : 2;
  auto out = [&](int o) { return static_cast<float*>(args->addrs[t.num_inputs + o]); };
  float* ws = static_cast<float*>(args->addrs[t.num_inputs + n_out]);
  int64_t H = t.hidden, gh = t.gates * H;
  if (out(0)) std::fill(out(0), out(0) + t.seq * t.dirs * t.batch * H, 0.f);
  for (int d = 0; d < t.dirs; ++d) {
    DirArgs a{};
    a.d = d;
    a.w = in(kW) + d * gh * t.input;
    a.r = in(kR) + d * gh * H;
    a.wb = t.has_b ? in(kB) + d * 2 * gh : nullptr;
    a.rb = t.has_b ? a.wb + gh : nullptr;
    a.p = t.has_p ? in(kP) + d * 3 * H : nullptr;
    a.h0 = t.has_init_h ? in(kInitH) : nullptr;
    a.c0 = t.has_init_c ? in(kInitC) : nullptr;
    a.seq_lens = t.has_seq_lens ? static_cast<const int32_t*>(args->addrs[kSeqLens]) : nullptr;
    a.acts = t.acts + d * ActsPerDir(t.cell);
    a.y = out(0);
    a.yh = out(1);
    a.yc = t.cell == kLstm ? out(2) : nullptr;
    RunDirection(t, in(kX), a, t.reverse || d == 1, ws);
  }
}

template <int32_t kCell>
ge::graphStatus InferShape(gert::InferShapeContext* ctx) {
  return InferShapeCell(ctx, kCell);
}
template <int32_t kCell>
ge::graphStatus Tiling(gert::TilingContext* ctx) {
  return TilingCell(ctx, kCell);
}

// The attributes shared by the three ops, declared in one (alphabetical) order.
void CommonDef(::ops::OpDef* op, int32_t cell) {
  using ::ops::OPTIONAL;
  using ::ops::REQUIRED;
  const std::vector<ge::DataType> f = {ge::DT_FLOAT};
  op->Input("X").ParamType(REQUIRED).DataType(f);
  op->Input("W").ParamType(REQUIRED).DataType(f);
  op->Input("R").ParamType(REQUIRED).DataType(f);
  op->Input("B").ParamType(OPTIONAL).DataType(f);
  op->Input("sequence_lens").ParamType(OPTIONAL).DataType({ge::DT_INT32});
  op->Input("initial_h").ParamType(OPTIONAL).DataType(f);
  if (cell == kLstm) {
    op->Input("initial_c").ParamType(OPTIONAL).DataType(f);
    op->Input("P").ParamType(OPTIONAL).DataType(f);
  }
  op->Output("Y").ParamType(OPTIONAL).DataType(f);
  op->Output("Y_h").ParamType(OPTIONAL).DataType(f);
  if (cell == kLstm) op->Output("Y_c").ParamType(OPTIONAL).DataType(f);
  op->Attr("activation_alpha").AttrType(OPTIONAL).ListFloat();
  op->Attr("activation_beta").AttrType(OPTIONAL).ListFloat();
  op->Attr("activations").AttrType(OPTIONAL).ListString();
  op->Attr("clip").AttrType(OPTIONAL).Float(0.f);
  op->Attr("direction").AttrType(OPTIONAL).String("forward");
  op->Attr("hidden_size").AttrType(OPTIONAL).Int(0);
  if (cell == kLstm) op->Attr("input_forget").AttrType(OPTIONAL).Int(0);
  op->Attr("layout").AttrType(OPTIONAL).Int(0);
  if (cell == kGru) op->Attr("linear_before_reset").AttrType(OPTIONAL).Int(0);
  op->SetInferDataType(InferDataType);
}

}  // namespace ge::ops_rnn

namespace ops {
using namespace ge::ops_rnn;
#define GE_RNN_OP(Name, kCell)                                                           \
  class Name : public OpDef {                                                            \
   public:                                                                               \
    explicit Name(const char* name) : OpDef(name) {                                      \
      CommonDef(this, kCell);                                                            \
      this->SetInferShape(InferShape<kCell>);                                            \
      this->AICore().SetTiling(Tiling<kCell>).SetKernel(Kernel).AddConfig("ascend910b"); \
    }                                                                                    \
  };                                                                                     \
  OP_ADD(Name)
GE_RNN_OP(RNN, kRnn);
GE_RNN_OP(GRU, kGru);
GE_RNN_OP(LSTM, kLstm);
}  // namespace ops
