// TensorDesc (dtype, format, shape) and HostTensor (a desc with host-owned data): the tensors the
// C++ API takes and returns, and the value types of the graph IR (graph inputs/outputs,
// initializers, constant attributes).
#ifndef GE_INCLUDE_GE_TENSOR_H_
#define GE_INCLUDE_GE_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ge/shape.h"
#include "graph/types.h"

namespace ge {

// What a value holds. Sequences and optionals travel through the engine as packed byte
// tensors (uint8[n], see tensor_seq.h), so memory planning and executors treat them as tensors.
enum class ValueKind { kTensor, kSequence, kOptional };

struct TensorDesc {
  DataType dtype = DT_UNDEFINED;
  Format format = FORMAT_ND;
  Shape shape = Shape::UnknownRank();
  ValueKind kind = ValueKind::kTensor;
  std::string ToString() const;  // "float32[1, 3, 224, 224]"
  // Ascend's ge::TensorDesc accessors (check-support functions read them from ge::Operator).
  const Shape& GetShape() const { return shape; }
  DataType GetDataType() const { return dtype; }
  Format GetFormat() const { return format; }
};

// A caller-owned region of device memory (aclrtMalloc) holding one tensor's bytes: the inputs
// and outputs of a zero-copy run (Model::RunWithDeviceBuffers).
struct DeviceBuffer {
  void* data = nullptr;
  size_t size = 0;  // bytes
};

// A tensor in host memory. Bytes are shared between copies (initializers are large and
// immutable once loaded). DT_STRING elements are fixed-size slots of kStringSlotBytes (a
// NUL-terminated string of at most kStringSlotBytes - 1 bytes), so that string tensors move
// through device memory like any other tensor.
class HostTensor {
 public:
  HostTensor() = default;
  HostTensor(DataType dtype, Shape shape);  // zero-filled
  static HostTensor FromBytes(DataType dtype, Shape shape, const void* data, size_t size);

  const TensorDesc& desc() const { return desc_; }
  DataType dtype() const { return desc_.dtype; }
  const Shape& shape() const { return desc_.shape; }
  int64_t NumElements() const { return desc_.shape.GetShapeSize(); }
  size_t NumBytes() const { return bytes_ ? size_ : 0; }
  const void* data() const { return bytes_.get(); }
  void* mutable_data() { return bytes_.get(); }
  template <typename T>
  const T* data_as() const {
    return static_cast<const T*>(data());
  }
  template <typename T>
  T* mutable_data_as() {
    return static_cast<T*>(mutable_data());
  }
  // Frees this copy's reference to the bytes (the desc stays): for constants whose bytes were
  // copied where they run (a sink segment's weight block), so the graph keeps no second copy.
  void ReleaseBytes() { bytes_.reset(); }
  // A tensor whose bytes were released (ReleaseBytes) before it was made: only the desc (an
  // offline model's constants that no node reads).
  // A tensor over `size` bytes at `data` that `owner` keeps alive (e.g. a memory-mapped model
  // file); size must be the desc's byte size. Copies share the bytes, as always.
  static HostTensor Aliasing(TensorDesc desc, std::shared_ptr<void> owner, void* data, size_t size) {
    HostTensor t;
    t.desc_ = std::move(desc);
    t.bytes_ = std::shared_ptr<uint8_t>(std::move(owner), static_cast<uint8_t*>(data));
    t.size_ = size;
    return t;
  }
  static HostTensor WithoutBytes(TensorDesc desc) {
    HostTensor t;
    t.desc_ = std::move(desc);
    return t;
  }
  // DT_STRING element access; SetString fails when the string does not fit a slot.
  std::string GetString(int64_t i) const;
  bool SetString(int64_t i, const std::string& s);
  std::vector<std::string> strings() const;  // all elements
  // Reads any integer dtype as int64 (for shape-like tensors); empty if not an integer tensor.
  std::vector<int64_t> ToInt64Vector() const;
  // Reads float, double, integer and bool elements as double; empty for another dtype (the
  // 16-bit floats, strings).
  std::vector<double> ToDoubleVector() const;

 private:
  // Bytes copied from src (the first src_size of them; the rest zero).
  HostTensor(DataType dtype, Shape shape, const void* src, size_t src_size);
  TensorDesc desc_;
  std::shared_ptr<uint8_t> bytes_;  // aliasing its owner (a vector, or a mapped file)
  size_t size_ = 0;
};

}  // namespace ge

#endif  // GE_INCLUDE_GE_TENSOR_H_
