#include "graph/tensor.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include <fmt/format.h>

#include "base/checked_math.h"
#include "base/dtype_table.h"
#include "base/host_memory.h"
#include "base/page_map.h"

namespace ge {

gert::Shape ToGertShape(const Shape& s) {
  gert::Shape g;
  for (int64_t d : s.GetDims()) g.AppendDim(d);
  return g;
}

Shape FromGertShape(const gert::Shape& s) {
  return Shape(std::vector<int64_t>(s.GetDims(), s.GetDims() + s.GetDimNum()));
}

std::string TensorDesc::ToString() const { return fmt::format("{}{}", DataTypeName(dtype), shape.ToString()); }

HostTensor::HostTensor(DataType dtype, Shape shape) : HostTensor(dtype, std::move(shape), nullptr, 0) {}

HostTensor::HostTensor(DataType dtype, Shape shape, const void* src, size_t src_size) {
  desc_.dtype = dtype;
  desc_.shape = std::move(shape);
  // An unknown or unrepresentable shape holds no bytes; sources of shapes (parsers, shape
  // inference, the tool) reject those before making a tensor (CheckedTensorBytes).
  const int64_t n = desc_.shape.GetShapeSize();
  const size_t bytes = CheckedByteSize(n, GetSizeByDataType(dtype)).value_or(0);
  // Accounted against the host memory limit (base/host_memory.h) while the bytes live.
  ReserveHostMemory(static_cast<int64_t>(bytes));
  const auto* p = static_cast<const uint8_t*>(src);
  const size_t copied = p != nullptr ? std::min(src_size, bytes) : 0;
  if (bytes >= kPageMapMinBytes) {  // its own mapping, zeroed by the kernel, in huge pages (base/page_map.h)
    auto* m = static_cast<uint8_t*>(MapPages(bytes));
    if (m == nullptr) {
      ReleaseHostMemory(static_cast<int64_t>(bytes));
      throw std::bad_alloc();
    }
    if (copied) std::memcpy(m, p, copied);  // the rest is zero already
    std::shared_ptr<uint8_t> owner;
    try {
      owner = std::shared_ptr<uint8_t>(m, [bytes](uint8_t* q) {
        UnmapPages(q, bytes);
        ReleaseHostMemory(static_cast<int64_t>(bytes));
      });
    } catch (...) {
      UnmapPages(m, bytes);
      ReleaseHostMemory(static_cast<int64_t>(bytes));
      throw;
    }
    bytes_ = std::move(owner);
    size_ = bytes;
    return;
  }
  std::vector<uint8_t>* v = nullptr;
  try {
    if (p != nullptr && src_size >= bytes) {  // copied, not zero-filled first
      v = new std::vector<uint8_t>(p, p + bytes);
    } else {
      v = new std::vector<uint8_t>(bytes);
      if (copied) std::memcpy(v->data(), p, copied);
    }
  } catch (...) {
    ReleaseHostMemory(static_cast<int64_t>(bytes));
    throw;
  }
  std::shared_ptr<std::vector<uint8_t>> owner(v, [bytes](std::vector<uint8_t>* q) {
    ReleaseHostMemory(static_cast<int64_t>(bytes));
    delete q;
  });
  bytes_ = std::shared_ptr<uint8_t>(owner, v->data());
  size_ = v->size();
}

HostTensor HostTensor::FromBytes(DataType dtype, Shape shape, const void* data, size_t size) {
  return HostTensor(dtype, std::move(shape), data, size);
}

std::string HostTensor::GetString(int64_t i) const {
  if (dtype() != DT_STRING || i < 0 || i >= NumElements()) return "";
  const char* slot = data_as<char>() + i * kStringSlotBytes;
  return std::string(slot, strnlen(slot, kStringSlotBytes));
}

bool HostTensor::SetString(int64_t i, const std::string& s) {
  if (dtype() != DT_STRING || i < 0 || i >= NumElements() || s.size() >= kStringSlotBytes) return false;
  char* slot = mutable_data_as<char>() + i * kStringSlotBytes;
  std::memset(slot, 0, kStringSlotBytes);
  std::memcpy(slot, s.data(), s.size());
  return true;
}

std::vector<std::string> HostTensor::strings() const {
  std::vector<std::string> out;
  for (int64_t i = 0; i < NumElements(); ++i) out.push_back(GetString(i));
  return out;
}

namespace {

using IntTypes = DtypeSet<DtypeEntry<DT_INT64, int64_t>, DtypeEntry<DT_INT32, int32_t>, DtypeEntry<DT_INT16, int16_t>,
                          DtypeEntry<DT_INT8, int8_t>, DtypeEntry<DT_UINT8, uint8_t>, DtypeEntry<DT_UINT16, uint16_t>,
                          DtypeEntry<DT_UINT32, uint32_t>, DtypeEntry<DT_UINT64, uint64_t>>;
using RealTypes = DtypeSet<DtypeEntry<DT_FLOAT, float>, DtypeEntry<DT_DOUBLE, double>, DtypeEntry<DT_INT64, int64_t>,
                           DtypeEntry<DT_INT32, int32_t>, DtypeEntry<DT_INT16, int16_t>, DtypeEntry<DT_INT8, int8_t>,
                           DtypeEntry<DT_UINT8, uint8_t>, DtypeEntry<DT_UINT16, uint16_t>,
                           DtypeEntry<DT_UINT32, uint32_t>, DtypeEntry<DT_UINT64, uint64_t>, DtypeEntry<DT_BOOL, bool>>;

// The elements converted to Out, for the dtypes of Set; empty for another dtype.
template <typename Set, typename Out>
std::vector<Out> ConvertedElements(const HostTensor& t) {
  std::vector<Out> out;
  if (t.NumElements() < 0) return out;
  Dispatch<Set>(t.dtype(), [&](auto tag) {
    const auto* p = t.data_as<TypeOf<decltype(tag)>>();
    out.reserve(t.NumElements());
    for (int64_t i = 0; i < t.NumElements(); ++i) out.push_back(static_cast<Out>(p[i]));
  });
  return out;
}

}  // namespace

std::vector<int64_t> HostTensor::ToInt64Vector() const { return ConvertedElements<IntTypes, int64_t>(*this); }

std::vector<double> HostTensor::ToDoubleVector() const { return ConvertedElements<RealTypes, double>(*this); }

}  // namespace ge
