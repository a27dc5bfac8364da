#include "kernels/broadcast.h"

#include <algorithm>

namespace ge::kernels {

bool BroadcastShape(const gert::Shape& a, const gert::Shape& b, gert::Shape* out) {
  size_t rank = std::max(a.GetDimNum(), b.GetDimNum());
  out->SetDimNum(0);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i + a.GetDimNum() >= rank ? a.GetDim(i + a.GetDimNum() - rank) : 1;
    int64_t db = i + b.GetDimNum() >= rank ? b.GetDim(i + b.GetDimNum() - rank) : 1;
    if (da != db && da != 1 && db != 1) return false;
    out->AppendDim(da == 1 ? db : da);
  }
  return true;
}

void BroadcastStrides(const gert::Shape& in, const gert::Shape& out, int64_t* strides) {
  size_t rank = out.GetDimNum(), off = rank - in.GetDimNum();
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    if (i < off) {
      strides[i] = 0;
      continue;
    }
    int64_t d = in.GetDim(i - off);
    strides[i] = d == 1 ? 0 : stride;
    stride *= d;
  }
}

bool BroadcastShapes(const std::vector<const gert::Shape*>& in, gert::Shape* out) {
  if (in.empty() || in[0] == nullptr) return false;
  gert::Shape acc = *in[0];
  for (size_t i = 1; i < in.size(); ++i) {
    gert::Shape next;
    if (in[i] == nullptr || !BroadcastShape(acc, *in[i], &next)) return false;
    acc = next;
  }
  *out = acc;
  return true;
}

}  // namespace ge::kernels
