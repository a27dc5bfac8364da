// gert::Tensor: a device tensor handed to operator functions (shape, dtype, format, address).
#ifndef GE_INCLUDE_EXE_GRAPH_RUNTIME_TENSOR_H_
#define GE_INCLUDE_EXE_GRAPH_RUNTIME_TENSOR_H_

#include "exe_graph/runtime/shape.h"
#include "graph/types.h"

namespace gert {

// The stream handle an op-execute function launches on (an aclrtStream).
typedef void* rtStream;

class Tensor {
 public:
  Tensor() = default;
  Tensor(const StorageShape& shape, ge::DataType dtype, ge::Format format, void* addr)
      : shape_(shape), dtype_(dtype), format_(format), addr_(addr) {}

  const StorageShape& GetShape() const { return shape_; }
  StorageShape& MutableShape() { return shape_; }
  const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
  const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
  Shape& MutableStorageShape() { return shape_.MutableStorageShape(); }
  Shape& MutableOriginShape() { return shape_.MutableOriginShape(); }
  int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
  ge::DataType GetDataType() const { return dtype_; }
  void SetDataType(ge::DataType dt) { dtype_ = dt; }
  ge::Format GetStorageFormat() const { return format_; }
  ge::Format GetOriginFormat() const { return format_; }
  void SetFormat(ge::Format f) { format_ = f; }
  void* GetAddr() { return addr_; }
  const void* GetAddr() const { return addr_; }
  void SetAddr(void* addr) { addr_ = addr; }
  template <typename T>
  T* GetData() {
    return static_cast<T*>(addr_);
  }
  template <typename T>
  const T* GetData() const {
    return static_cast<const T*>(addr_);
  }
  // Bytes of the tensor's data (shape size × element size).
  size_t GetSize() const {
    int64_t n = GetShapeSize();
    size_t bytes = 0;
    if (n < 0 || __builtin_mul_overflow(static_cast<size_t>(n), ge::GetSizeByDataType(dtype_), &bytes)) return 0;
    return bytes;
  }

 private:
  StorageShape shape_;
  ge::DataType dtype_ = ge::DT_FLOAT;
  ge::Format format_ = ge::FORMAT_ND;
  void* addr_ = nullptr;
};

}  // namespace gert

#endif  // GE_INCLUDE_EXE_GRAPH_RUNTIME_TENSOR_H_
