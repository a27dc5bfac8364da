// Text operators: StringNormalizer (case folding and stop-word removal on string tensors) and
// TfIdfVectorizer (n-gram counts over int or string tokens, weighted TF / IDF / TFIDF).
// Both have data-dependent work and small sizes: one block, shapes read from the attributes.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "ops/op_util.h"

namespace ge::ops_text {
using namespace ge::ops_util;

std::string SlotString(const void* base, int64_t i) {
  const char* slot = static_cast<const char*>(base) + i * ge::kStringSlotBytes;
  return std::string(slot, strnlen(slot, ge::kStringSlotBytes));
}

void SetSlot(void* base, int64_t i, const std::string& s) {
  char* slot = static_cast<char*>(base) + i * ge::kStringSlotBytes;
  std::memset(slot, 0, ge::kStringSlotBytes);
  std::memcpy(slot, s.data(), std::min(s.size(), ge::kStringSlotBytes - 1));
}

// ---- StringNormalizer --------------------------------------------------------------------------
enum SnAttr { kCaseChange, kCaseSensitive, kLocale, kStopwords };

// The kept strings of input x (after stop-word filtering), before case change.
std::vector<std::string> Normalize(const gert::Tensor* x, const gert::RuntimeAttrs* attrs) {
  std::set<std::string> stop;
  if (auto* sw = attrs->GetListStr(kStopwords)) stop.insert(sw->begin(), sw->end());
  bool sensitive = *attrs->GetInt(kCaseSensitive) != 0;
  auto lower = [](std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  std::set<std::string> stop_lower;
  for (const auto& s : stop) stop_lower.insert(lower(s));
  std::string action = attrs->GetStr(kCaseChange);
  std::vector<std::string> out;
  for (int64_t i = 0; i < x->GetShapeSize(); ++i) {
    std::string s = SlotString(x->GetAddr(), i);
    if (sensitive ? stop.count(s) : stop_lower.count(lower(s))) continue;
    for (auto& c : s) {
      if (action == "LOWER") c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (action == "UPPER") c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    out.push_back(s);
  }
  if (out.empty()) out.push_back("");  // ONNX: all filtered -> one empty string
  return out;
}

ge::graphStatus SnInferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  const gert::Tensor* t = ctx->GetInputTensor(0);
  if (!x || x->GetDimNum() < 1 || x->GetDimNum() > 2) return ge::GRAPH_FAILED;
  int64_t n = -1;
  if (t && t->GetAddr()) n = static_cast<int64_t>(Normalize(t, ctx->GetAttrs()).size());
  *ctx->GetOutputShape(0) = x->GetDimNum() == 2 ? gert::Shape({1, n}) : gert::Shape({n});
  return ge::GRAPH_SUCCESS;
}

// Tiling runs on the host with the input's data: the result travels in the tiling data
// (host scheduling only: the input is value-dependent, so the node is never sunk).
struct SnTiling {
  int64_t count;
  char strings[1];  // count slots of kStringSlotBytes
};

ge::graphStatus SnTilingFunc(gert::TilingContext* ctx) {
  auto out = Normalize(ctx->GetInputTensor(0), ctx->GetAttrs());
  auto* raw = ctx->GetRawTilingData();
  size_t need = sizeof(int64_t) + out.size() * ge::kStringSlotBytes;
  if (raw->GetCapacity() < need) return ge::GRAPH_FAILED;
  int64_t n = static_cast<int64_t>(out.size());
  std::memcpy(raw->GetData(), &n, sizeof(n));
  for (size_t i = 0; i < out.size(); ++i) SetSlot(static_cast<char*>(raw->GetData()) + sizeof(n), i, out[i]);
  raw->SetDataSize(need);
  return ge::GRAPH_SUCCESS;
}

void SnKernel(const aclrtKernelArgs* args) {
  int64_t n;
  std::memcpy(&n, args->tiling, sizeof(n));
  std::memcpy(args->addrs[1], static_cast<const char*>(args->tiling) + sizeof(n), n * ge::kStringSlotBytes);
}

// ---- TfIdfVectorizer ---------------------------------------------------------------------------
enum TfAttr { kMaxGram, kMaxSkip, kMinGram, kMode, kNgramCounts, kNgramIndexes, kPoolInts, kPoolStrings, kWeights };

// Tiling data: this header, then num_grams {n, index} pairs, then the grams' tokens as string
// slots (int tokens in decimal), then num_weights weights (the given ones, at most out_dim;
// the rest are 1: out_dim comes from the largest ngram index, and a 2^40 index made a 4 TiB
// vector here). Everything the kernel needs is copied: tiling data outlives the compile step in
// sink mode.
struct TfIdfTiling {
  int32_t dtype;
  int32_t mode;  // 0 TF, 1 IDF, 2 TFIDF
  int64_t batch, len, out_dim;
  int64_t min_n, max_n, max_skip;
  int64_t num_grams, num_tokens, num_weights;
};

int64_t OutDim(const gert::RuntimeAttrs* a) {
  auto* idx = a->GetListInt(kNgramIndexes);
  int64_t m = -1;
  for (size_t i = 0; idx && i < idx->GetSize(); ++i) m = std::max(m, idx->GetData()[i]);
  return m == INT64_MAX ? -1 : m + 1;  // -1: no output row can hold index INT64_MAX
}

ge::graphStatus TfInferShape(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  if (!x || x->GetDimNum() < 1 || x->GetDimNum() > 2) return ge::GRAPH_FAILED;
  int64_t c = OutDim(ctx->GetAttrs());
  if (c < 0) return ge::GRAPH_FAILED;
  *ctx->GetOutputShape(0) = x->GetDimNum() == 2 ? gert::Shape({x->GetDim(0), c}) : gert::Shape({c});
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus TfInferDataType(gert::InferDataTypeContext* ctx) { return ctx->SetOutputDataType(0, ge::DT_FLOAT); }

// The longest gram in the pool ((n, index) pairs): no longer window can match.
int64_t LongestGram(const std::vector<int64_t>& grams) {
  int64_t n = 0;
  for (size_t g = 0; g < grams.size(); g += 2) n = std::max(n, grams[g]);
  return n;
}

ge::graphStatus TfTiling(gert::TilingContext* ctx) {
  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  const gert::RuntimeAttrs* a = ctx->GetAttrs();
  std::vector<std::string> pool;
  if (auto* pi = a->GetListInt(kPoolInts))
    for (size_t i = 0; i < pi->GetSize(); ++i) pool.push_back(std::to_string(pi->GetData()[i]));
  if (auto* ps = a->GetListStr(kPoolStrings)) pool.insert(pool.end(), ps->begin(), ps->end());
  auto* counts = a->GetListInt(kNgramCounts);
  auto* indexes = a->GetListInt(kNgramIndexes);
  // Attributes come from the model: the pool offsets must be within the pool and in order, the
  // output indexes non-negative (they address the output row).
  if (indexes == nullptr) return ge::GRAPH_FAILED;
  for (size_t i = 0; i < indexes->GetSize(); ++i)
    if (indexes->GetData()[i] < 0) return ge::GRAPH_FAILED;
  for (size_t n = 0; counts && n < counts->GetSize(); ++n) {
    const int64_t c = counts->GetData()[n];
    if (c < 0 || c > static_cast<int64_t>(pool.size()) || (n > 0 && c < counts->GetData()[n - 1]))
      return ge::GRAPH_FAILED;
  }
  if (*a->GetInt(kMinGram) < 1 || *a->GetInt(kMaxGram) < *a->GetInt(kMinGram) || *a->GetInt(kMaxSkip) < 0)
    return ge::GRAPH_FAILED;
  // Pool: n-grams of length n occupy entries [counts[n-1], counts[n]) in n-token steps.
  std::vector<int64_t> grams;  // (n, index) pairs
  std::vector<std::string> tokens;
  for (size_t n = 0; counts && n < counts->GetSize(); ++n) {
    int64_t begin = counts->GetData()[n];
    int64_t end = n + 1 < counts->GetSize() ? counts->GetData()[n + 1] : static_cast<int64_t>(pool.size());
    for (int64_t p = begin; p + static_cast<int64_t>(n) < end; p += n + 1) {
      size_t g = grams.size() / 2;
      if (g >= indexes->GetSize()) return ge::GRAPH_FAILED;
      grams.push_back(static_cast<int64_t>(n + 1));
      grams.push_back(indexes->GetData()[g]);
      tokens.insert(tokens.end(), pool.begin() + p, pool.begin() + p + n + 1);
    }
  }
  std::string mode = a->GetStr(kMode);
  TfIdfTiling t{ctx->GetInputDesc(0)->GetDataType(),
                mode == "IDF"     ? 1
                : mode == "TFIDF" ? 2
                                  : 0,
                x.GetDimNum() == 2 ? x.GetDim(0) : 1, x.GetDim(x.GetDimNum() - 1), OutDim(a), *a->GetInt(kMinGram),
                // No window longer than the row can match: the loops stop there (the attributes
                // come from the model; 2^62 was a hang and an overflowing window size).
                std::min({*a->GetInt(kMaxGram), std::max<int64_t>(x.GetDim(x.GetDimNum() - 1), 0), LongestGram(grams)}),
                std::min(*a->GetInt(kMaxSkip), std::max<int64_t>(x.GetDim(x.GetDimNum() - 1), 0)),
                static_cast<int64_t>(grams.size() / 2), static_cast<int64_t>(tokens.size())};
  std::vector<float> w;
  if (auto* ws = a->GetListFloat(kWeights))
    for (size_t i = 0; i < ws->GetSize() && static_cast<int64_t>(i) < t.out_dim; ++i) w.push_back(ws->GetData()[i]);
  t.num_weights = static_cast<int64_t>(w.size());
  auto* raw = ctx->GetRawTilingData();
  size_t need = sizeof(t) + grams.size() * 8 + tokens.size() * ge::kStringSlotBytes + w.size() * 4;
  if (raw->GetCapacity() < need) return ge::GRAPH_FAILED;
  char* p = static_cast<char*>(raw->GetData());
  std::memcpy(p, &t, sizeof(t));
  if (!grams.empty()) std::memcpy(p + sizeof(t), grams.data(), grams.size() * 8);
  char* tok = p + sizeof(t) + grams.size() * 8;
  for (size_t i = 0; i < tokens.size(); ++i) SetSlot(tok, i, tokens[i]);
  if (!w.empty()) std::memcpy(tok + tokens.size() * ge::kStringSlotBytes, w.data(), w.size() * 4);
  raw->SetDataSize(need);
  return ge::GRAPH_SUCCESS;
}

// Token i of row b as text (ints in decimal, like the pool).
std::string Token(const TfIdfTiling& t, const void* x, int64_t b, int64_t i) {
  int64_t k = b * t.len + i;
  if (t.dtype == ge::DT_STRING) return SlotString(x, k);
  int64_t v = t.dtype == ge::DT_INT32 ? static_cast<const int32_t*>(x)[k] : static_cast<const int64_t*>(x)[k];
  return std::to_string(v);
}

void TfKernel(const aclrtKernelArgs* args) {
  TfIdfTiling t;
  const char* p = static_cast<const char*>(args->tiling);
  std::memcpy(&t, p, sizeof(t));
  const auto* grams = reinterpret_cast<const int64_t*>(p + sizeof(t));
  const char* tok = p + sizeof(t) + t.num_grams * 16;
  const auto* w = reinterpret_cast<const float*>(tok + t.num_tokens * ge::kStringSlotBytes);
  // Pool tokens as small ids, grams as id sequences; each row's tokens are looked up once (a
  // token not in the pool matches no gram), then every window compares ids (building strings per
  // window ran a 4096-token row past libFuzzer's 30 s under the sanitizers).
  std::map<std::string, int> ids;
  std::map<std::vector<int>, int64_t> gram_index;
  std::vector<int> key;
  for (int64_t g = 0, off = 0; g < t.num_grams; ++g) {
    key.clear();
    for (int64_t k = 0; k < grams[2 * g]; ++k)
      key.push_back(ids.emplace(SlotString(tok, off++), static_cast<int>(ids.size())).first->second);
    gram_index[key] = grams[2 * g + 1];
  }
  auto* y = static_cast<float*>(args->addrs[1]);
  std::fill(y, y + t.batch * t.out_dim, 0.f);
  std::vector<int> row_ids(static_cast<size_t>(std::max<int64_t>(t.len, 0)));
  for (int64_t b = 0; b < t.batch; ++b) {
    float* row = y + b * t.out_dim;
    for (int64_t i = 0; i < t.len; ++i) {
      auto it = ids.find(Token(t, args->addrs[0], b, i));
      row_ids[i] = it == ids.end() ? -1 : it->second;
    }
    for (int64_t n = t.min_n; n <= t.max_n; ++n)
      for (int64_t skip = 0; skip <= (n == 1 ? 0 : t.max_skip); ++skip)
        for (int64_t s = 0; s + (n - 1) * (skip + 1) < t.len; ++s) {
          key.clear();
          for (int64_t k = 0; k < n && (key.empty() || key.back() >= 0); ++k)
            key.push_back(row_ids[s + k * (skip + 1)]);
          if (static_cast<int64_t>(key.size()) != n || key.back() < 0) continue;
          auto it = gram_index.find(key);
          if (it != gram_index.end()) row[it->second] += 1.f;
        }
    for (int64_t c = 0; c < t.out_dim; ++c) {
      if (t.mode == 1)
        row[c] = row[c] > 0 ? (c < t.num_weights ? w[c] : 1.f) : 0.f;
      else if (t.mode == 2)
        row[c] *= c < t.num_weights ? w[c] : 1.f;
    }
  }
}

}  // namespace ge::ops_text

namespace ops {
using namespace ge::ops_text;

class StringNormalizer : public OpDef {
 public:
  explicit StringNormalizer(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_STRING}).ValueDepend(REQUIRED);
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_STRING});
    this->Attr("case_change_action").AttrType(OPTIONAL).String("NONE");
    this->Attr("is_case_sensitive").AttrType(OPTIONAL).Int(0);
    this->Attr("locale").AttrType(OPTIONAL).String("");
    this->Attr("stopwords").AttrType(OPTIONAL).ListString();
    this->SetInferShape(SnInferShape);
    this->SetInferDataType(ge::ops_util::InferDataTypeSameAsInput0);
    this->AICore().SetTiling(SnTilingFunc).SetKernel(SnKernel).AddConfig("ascend910b");
  }
};
OP_ADD(StringNormalizer);
}  // namespace ops
IMPL_OP(StringNormalizer).Tiling(ge::ops_text::SnTilingFunc, 1 << 20);
namespace ops {

class TfIdfVectorizer : public OpDef {
 public:
  explicit TfIdfVectorizer(const char* name) : OpDef(name) {
    this->Input("X").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT64, ge::DT_STRING});
    this->Output("Y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("max_gram_length").AttrType(REQUIRED).Int();
    this->Attr("max_skip_count").AttrType(REQUIRED).Int();
    this->Attr("min_gram_length").AttrType(REQUIRED).Int();
    this->Attr("mode").AttrType(REQUIRED).String();
    this->Attr("ngram_counts").AttrType(REQUIRED).ListInt();
    this->Attr("ngram_indexes").AttrType(REQUIRED).ListInt();
    this->Attr("pool_int64s").AttrType(OPTIONAL).ListInt();
    this->Attr("pool_strings").AttrType(OPTIONAL).ListString();
    this->Attr("weights").AttrType(OPTIONAL).ListFloat();
    this->SetInferShape(TfInferShape);
    this->SetInferDataType(TfInferDataType);
    this->AICore().SetTiling(TfTiling).SetKernel(TfKernel).AddConfig("ascend910b");
  }
};
OP_ADD(TfIdfVectorizer);
}  // namespace ops

// Pools of n-grams can be large: room for them in the tiling data.
IMPL_OP(TfIdfVectorizer).Tiling(ge::ops_text::TfTiling, 1 << 20);

namespace ops {}  // namespace ops
