#include "ops/spatial_util.h"

#include <cstring>

#include <fmt/format.h>

#include "base/checked_math.h"
#include "ops/attr_choice.h"

namespace ge::ops_util {
namespace {
int64_t ListAt(const gert::RuntimeAttrs* a, int idx, size_t i, int64_t dflt) {
  if (idx < 0) return dflt;
  auto* l = a->GetListInt(idx);
  return (l && i < l->GetSize()) ? l->GetData()[i] : dflt;
}

// A list attribute the op has and the model set must hold `want` values (empty counts as unset):
// AveragePool with 5 pads over a 2-D input was accepted, reading the begin pads as end pads.
bool ListLengthOk(const gert::RuntimeAttrs* a, int idx, size_t want, const char* name, std::string* why) {
  if (idx < 0) return true;
  auto* l = a->GetListInt(idx);
  if (l == nullptr || l->GetSize() == 0 || l->GetSize() == want) return true;
  if (why) *why = fmt::format("'{}' has {} values, expected {}", name, l->GetSize(), want);
  return false;
}

bool Fail(std::string* why, std::string msg) {
  if (why) *why = std::move(msg);
  return false;
}
}  // namespace

bool ComputeWindow(const gert::Shape& x, const int64_t* kernel, size_t nk, const gert::RuntimeAttrs* attrs,
                   WindowAttrIdx idx, Window3d* w, std::string* why) {
  size_t ns = x.GetDimNum() >= 2 ? x.GetDimNum() - 2 : 0;
  if (ns == 0 || ns > 3) return Fail(why, fmt::format("expected 1 to 3 spatial dims, got {}", ns));
  if (nk != ns) return Fail(why, fmt::format("kernel_shape has {} values, expected {}", nk, ns));
  if (!ListLengthOk(attrs, idx.strides, ns, "strides", why) ||
      !ListLengthOk(attrs, idx.dilations, ns, "dilations", why))
    return false;
  // auto_pad: NOTSET, SAME_UPPER, SAME_LOWER or VALID (an unknown value was computed as VALID
  // before: a silent wrong answer).
  enum { kNotSet, kSameUpper, kSameLower, kValid };
  std::string bad_auto_pad;
  const int auto_pad = idx.auto_pad >= 0 ? AttrChoice(attrs, idx.auto_pad, "auto_pad",
                                                      {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"}, &bad_auto_pad)
                                         : kNotSet;
  if (auto_pad < 0) return Fail(why, bad_auto_pad);
  bool ceil_mode = idx.ceil_mode >= 0 && attrs->GetInt(idx.ceil_mode) && *attrs->GetInt(idx.ceil_mode) != 0;
  size_t off = 3 - ns;  // leading unit dims
  for (size_t d = 0; d < 3; ++d) {
    w->in[d] = 1;
    w->out[d] = 1;
    w->kernel[d] = 1;
    w->stride[d] = 1;
    w->dilation[d] = 1;
    w->pad_begin[d] = 0;
    w->pad_end[d] = 0;
  }
  for (size_t i = 0; i < ns; ++i) {
    size_t d = off + i;
    w->in[d] = x.GetDim(2 + i);
    // A dim unknown at compile time (-1): so is the output (SAME pads of it overflowed, UBSan;
    // explicit pads made a static output size of it). Static inference leaves the output unknown.
    if (w->in[d] < 0) return Fail(why, fmt::format("spatial dim {} is unknown", i));
    w->kernel[d] = kernel[i];
    w->stride[d] = ListAt(attrs, idx.strides, i, 1);
    w->dilation[d] = ListAt(attrs, idx.dilations, i, 1);
    if (w->kernel[d] <= 0 || w->stride[d] <= 0 || w->dilation[d] <= 0)
      return Fail(why, fmt::format("kernel {}, stride {} and dilation {} must be positive", w->kernel[d], w->stride[d],
                                   w->dilation[d]));
    // Checked: kernel, dilation, pads and strides come from the model (pads of 2^41 overflow).
    int64_t ek = 0;
    if (!CheckedMul(w->kernel[d] - 1, w->dilation[d], &ek) || !CheckedAdd<int64_t>(ek, 1, &ek))
      return Fail(why, "the dilated kernel extent overflows int64");
    if (auto_pad == kSameUpper || auto_pad == kSameLower) {
      int64_t total = 0;
      w->out[d] = w->in[d] / w->stride[d] + (w->in[d] % w->stride[d] != 0);  // ceil(in / stride)
      if (!CheckedMul(w->out[d] - 1, w->stride[d], &total) || !CheckedAdd(total, ek - w->in[d], &total))
        return Fail(why, "the SAME padding overflows int64");
      total = std::max<int64_t>(0, total);
      w->pad_begin[d] = auto_pad == kSameUpper ? total / 2 : total - total / 2;
      w->pad_end[d] = total - w->pad_begin[d];
      continue;
    }
    if (auto_pad == kNotSet) {
      if (i == 0 && !ListLengthOk(attrs, idx.pads, 2 * ns, "pads", why)) return false;
      w->pad_begin[d] = ListAt(attrs, idx.pads, i, 0);
      w->pad_end[d] = ListAt(attrs, idx.pads, ns + i, 0);
      if (w->pad_begin[d] < 0 || w->pad_end[d] < 0)
        return Fail(why, fmt::format("pads must be non-negative, got {} and {}", w->pad_begin[d], w->pad_end[d]));
    }
    int64_t span = 0;
    if (!CheckedAdd(w->in[d], w->pad_begin[d], &span) || !CheckedAdd(span, w->pad_end[d], &span))
      return Fail(why, "the padded input size overflows int64");
    span -= ek;  // both non-negative: no overflow
    if (span < 0)
      return Fail(why, fmt::format("the dilated kernel ({}) is wider than the padded input ({})", ek, span + ek));
    w->out[d] = (ceil_mode ? span / w->stride[d] + (span % w->stride[d] != 0) : span / w->stride[d]) + 1;
    // ceil_mode: the last window must start inside the input or left padding.
    if (ceil_mode && (w->out[d] - 1) * w->stride[d] >= w->in[d] + w->pad_begin[d]) --w->out[d];
  }
  // Kernels count a window's elements and its padded extent over all dims: those products must
  // fit int64 too (a 2^62 kernel with 2^62 pads passed the per-dim checks and overflowed there).
  int64_t window = 1, padded = 1;
  for (size_t d = 0; d < 3; ++d) {
    int64_t ek = (w->kernel[d] - 1) * w->dilation[d] + 1;  // checked above
    // Checked here: SAME_* pads are not checked above (a 2^63 - 1 kernel's SAME_UPPER pads).
    int64_t extent = 0;
    if (!CheckedAdd(w->in[d], w->pad_begin[d], &extent) || !CheckedAdd(extent, w->pad_end[d], &extent))
      return Fail(why, "the padded input size overflows int64");
    if (!CheckedMul(window, ek, &window) || !CheckedMul(padded, extent, &padded))
      return Fail(why, "the window or padded input element count overflows int64");
  }
  return true;
}

}  // namespace ge::ops_util
