// ge::Shape: dims with unknown dims (-1) and unknown rank, as the graph IR records them.
#ifndef GE_INCLUDE_GE_SHAPE_H_
#define GE_INCLUDE_GE_SHAPE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace ge {

class Shape {
 public:
  static constexpr int64_t kUnknownDim = -1;

  Shape() = default;  // a scalar
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
  static Shape UnknownRank() {
    Shape s;
    s.unknown_rank_ = true;
    return s;
  }

  bool IsUnknownRank() const { return unknown_rank_; }
  // Known rank and every dim >= 0.
  bool IsStatic() const;
  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t i) const { return dims_[i]; }
  const std::vector<int64_t>& GetDims() const { return dims_; }
  std::vector<int64_t>& MutableDims() { return dims_; }
  // Element count, -1 if not static. Saturates to -1 on overflow.
  // Product of the dims; -1 when a dim is unknown, the rank is unknown, or the product overflows.
  int64_t GetShapeSize() const;
  std::string ToString() const;  // "[1, 3, -1]" or "[?]" for unknown rank
  bool operator==(const Shape& o) const { return unknown_rank_ == o.unknown_rank_ && dims_ == o.dims_; }
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  std::vector<int64_t> dims_;
  bool unknown_rank_ = false;
};

}  // namespace ge

#endif  // GE_INCLUDE_GE_SHAPE_H_
