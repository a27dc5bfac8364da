// gert::Shape and gert::StorageShape: fixed-capacity shapes handed to operator functions.
// Also the TypedContinuousVector used for list attributes.
#ifndef GE_INCLUDE_EXE_GRAPH_RUNTIME_SHAPE_H_
#define GE_INCLUDE_EXE_GRAPH_RUNTIME_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace gert {

class Shape {
 public:
  static constexpr size_t kMaxDimNum = 25;
  static constexpr int64_t kInvalidDimValue = INT64_MIN;

  Shape() = default;
  Shape(std::initializer_list<int64_t> dims) {
    for (int64_t d : dims) AppendDim(d);
  }

  size_t GetDimNum() const { return dim_num_; }
  void SetDimNum(size_t n) { dim_num_ = n > kMaxDimNum ? kMaxDimNum : n; }
  int64_t GetDim(size_t i) const { return i < dim_num_ ? dims_[i] : kInvalidDimValue; }
  void SetDim(size_t i, int64_t v) {
    if (i < dim_num_) dims_[i] = v;
  }
  // Past kMaxDimNum dims the shape is marked invalid (its last dim becomes kInvalidDimValue,
  // which shape inference reports as a rank error) instead of being truncated silently.
  Shape& AppendDim(int64_t v) {
    if (dim_num_ < kMaxDimNum)
      dims_[dim_num_++] = v;
    else
      dims_[kMaxDimNum - 1] = kInvalidDimValue;
    return *this;
  }
  bool IsScalar() const { return dim_num_ == 0; }
  void SetScalar() { dim_num_ = 0; }
  // Unchecked dim access (GetDim/SetDim check the index).
  const int64_t& operator[](size_t i) const { return dims_[i]; }
  int64_t& operator[](size_t i) { return dims_[i]; }
  // Product of dims (1 for a scalar); negative if any dim is unknown (<0) or the product
  // overflows int64.
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (size_t i = 0; i < dim_num_; ++i)
      if (dims_[i] < 0 || __builtin_mul_overflow(n, dims_[i], &n)) return -1;
    return n;
  }
  const int64_t* GetDims() const { return dims_; }
  bool operator==(const Shape& o) const {
    if (dim_num_ != o.dim_num_) return false;
    for (size_t i = 0; i < dim_num_; ++i)
      if (dims_[i] != o.dims_[i]) return false;
    return true;
  }
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  size_t dim_num_ = 0;
  int64_t dims_[kMaxDimNum] = {};
};

class StorageShape {
 public:
  StorageShape() = default;
  StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
      : origin_(origin), storage_(storage) {}
  const Shape& GetOriginShape() const { return origin_; }
  const Shape& GetStorageShape() const { return storage_; }
  Shape& MutableOriginShape() { return origin_; }
  Shape& MutableStorageShape() { return storage_; }
  // GE keeps origin == storage (no private formats on the CPU device).
  void SetShape(const Shape& s) {
    origin_ = s;
    storage_ = s;
  }

 private:
  Shape origin_;
  Shape storage_;
};

template <typename T>
class TypedContinuousVector {
 public:
  TypedContinuousVector(const T* data, size_t size) : data_(data), size_(size) {}
  size_t GetSize() const { return size_; }
  const T* GetData() const { return data_; }

 private:
  const T* data_;
  size_t size_;
};

}  // namespace gert

#endif  // GE_INCLUDE_EXE_GRAPH_RUNTIME_SHAPE_H_
