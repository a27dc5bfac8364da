#include "ge/tensor_seq.h"

#include <cstring>

namespace ge {
namespace {

constexpr uint64_t kMagic = 0x5145534b43415047ull;  // "GPACKSEQ"
constexpr int kMaxRank = 8;

struct Header {
  uint64_t magic;
  int32_t kind;
  int32_t elem_dtype;
  int64_t count;
};
struct Entry {
  int32_t dtype;
  int32_t rank;
  int64_t dims[kMaxRank];
  int64_t offset;
  int64_t bytes;
};

}  // namespace

bool IsPacked(const HostTensor& t) {
  if (t.dtype() != DT_UINT8 || t.NumBytes() < sizeof(Header)) return false;
  uint64_t magic;
  std::memcpy(&magic, t.data(), sizeof(magic));
  return magic == kMagic;
}

HostTensor PackSeq(const TensorSeq& seq) {
  size_t head = sizeof(Header) + seq.elems.size() * sizeof(Entry), total = head;
  for (const auto& e : seq.elems) total += e.NumBytes();
  HostTensor out(DT_UINT8, Shape({static_cast<int64_t>(total)}));
  auto* base = out.mutable_data_as<uint8_t>();
  Header h{kMagic, static_cast<int32_t>(seq.kind), seq.elem_dtype, static_cast<int64_t>(seq.elems.size())};
  std::memcpy(base, &h, sizeof(h));
  size_t off = head;
  for (size_t i = 0; i < seq.elems.size(); ++i) {
    const HostTensor& e = seq.elems[i];
    Entry en{};
    en.dtype = e.dtype();
    en.rank = static_cast<int32_t>(e.shape().GetDimNum());
    for (int d = 0; d < en.rank && d < kMaxRank; ++d) en.dims[d] = e.shape().GetDim(d);
    en.offset = static_cast<int64_t>(off);
    en.bytes = static_cast<int64_t>(e.NumBytes());
    std::memcpy(base + sizeof(Header) + i * sizeof(Entry), &en, sizeof(en));
    if (e.NumBytes()) std::memcpy(base + off, e.data(), e.NumBytes());
    off += e.NumBytes();
  }
  return out;
}

Status UnpackSeq(const HostTensor& packed, TensorSeq* seq) {
  if (!IsPacked(packed)) return InvalidArgument("value is not a sequence or optional");
  const auto* base = packed.data_as<uint8_t>();
  Header h;
  std::memcpy(&h, base, sizeof(h));
  size_t n = packed.NumBytes();
  if (h.count < 0 || sizeof(Header) + h.count * sizeof(Entry) > n) return InvalidArgument("corrupted packed sequence");
  seq->kind = static_cast<ValueKind>(h.kind);
  seq->elem_dtype = static_cast<DataType>(h.elem_dtype);
  seq->elems.clear();
  for (int64_t i = 0; i < h.count; ++i) {
    Entry en;
    std::memcpy(&en, base + sizeof(Header) + i * sizeof(Entry), sizeof(en));
    if (en.rank < 0 || en.rank > kMaxRank || en.offset < 0 || en.bytes < 0 ||
        static_cast<size_t>(en.offset + en.bytes) > n)
      return InvalidArgument("corrupted packed sequence element {}", i);
    std::vector<int64_t> dims(en.dims, en.dims + en.rank);
    seq->elems.push_back(
        HostTensor::FromBytes(static_cast<DataType>(en.dtype), Shape(dims), base + en.offset, en.bytes));
  }
  return Status::Ok();
}

}  // namespace ge
