// TF ops built from several GE ops: elementwise (Mod, Xlogy, ...), scatter and segment
// reductions, matrix diagonals, fake quantization, LinSpace, Cross, NonMaxSuppression, color
// spaces, DynamicStitch/Partition, ShapeN, Roll.
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "parser/tf/tf_converter.h"

namespace ge::tf_frontend {

// ---- ops built from several GE ops ----------------------------------------------------------------

// An [m, n] identity-pattern matrix of dtype dt (1 where row == column), m and n int64 scalars.
ValueId Converter::Eye(ValueId m, ValueId n, DataType dt) {
  auto iota = [&](ValueId k, int64_t axis) {
    ValueId r = Emit1("Range", {C(IntTensor(DT_INT64, {}, {0})), k, C(IntTensor(DT_INT64, {}, {1}))});
    return Emit1("Unsqueeze", {r, C(I64Vec({axis}))});
  };
  ValueId eq = Emit1("Equal", {iota(m, 1), iota(n, 0)});
  return Emit1("Cast", {eq}, {{"to", int64_t{ToOnnxDataType(dt)}}});
}

// Dimension `axis` of x's shape as an int64 scalar.
ValueId Converter::Dim(ValueId x, int64_t axis) {
  return Emit1("Gather", {Emit1("Shape", {x}), C(IntTensor(DT_INT64, {}, {axis}))}, {{"axis", int64_t{0}}});
}

// TF's FakeQuant*: x clamped to the range [min, max] nudged so that zero is exactly
// representable, then rounded to one of the 2^num_bits (-1 when narrow) levels.
void Converter::FakeQuant(const tf::NodeDef& n, ValueId x, float lo, float hi) {
  const float qmin = AttrB(n, "narrow_range") ? 1.f : 0.f;
  const float qmax = static_cast<float>((int64_t{1} << AttrI(n, "num_bits", 8)) - 1);
  const float scale = (hi - lo) / (qmax - qmin);
  const float zp_from_min = qmin - lo / scale;
  const float zp = zp_from_min < qmin ? qmin : zp_from_min > qmax ? qmax : std::round(zp_from_min);
  const float nlo = (qmin - zp) * scale, nhi = (qmax - zp) * scale;
  ValueId c = Emit1("Clip", {x, C(ScalarOf(DT_FLOAT, nlo)), C(ScalarOf(DT_FLOAT, nhi))});
  ValueId q =
      Emit1("Floor",
            {Emit1("Add", {Emit1("Div", {Emit1("Sub", {c, C(ScalarOf(DT_FLOAT, nlo))}), C(ScalarOf(DT_FLOAT, scale))}),
                           C(ScalarOf(DT_FLOAT, 0.5))})});
  ValueId y =
      Emit("Add", {Emit1("Mul", {q, C(ScalarOf(DT_FLOAT, scale))}), C(ScalarOf(DT_FLOAT, nlo))}, {}, 1, true)[0];
  SetOut1(y, -1, DT_FLOAT);
}

// Scatter-into-tensor and segment reductions, as ScatterND with a reduction.
Status Converter::ScatterOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done) {
  static const std::map<std::string, std::string> kTensorScatter = {{"TensorScatterUpdate", "none"},
                                                                    {"TensorScatterAdd", "add"},
                                                                    {"TensorScatterSub", "add"},
                                                                    {"TensorScatterMax", "max"},
                                                                    {"TensorScatterMin", "min"}};
  static const std::map<std::string, std::string> kSegment = {
      {"UnsortedSegmentSum", "add"}, {"UnsortedSegmentProd", "mul"}, {"UnsortedSegmentMax", "max"},
      {"UnsortedSegmentMin", "min"}, {"SegmentSum", "add"},          {"SegmentProd", "mul"}};
  const std::string& op = n.op();
  auto ts = kTensorScatter.find(op);
  auto seg = kSegment.find(op);
  *done = ts != kTensorScatter.end() || seg != kSegment.end();
  if (!*done) return Status::Ok();
  const size_t want = op.rfind("Segment", 0) == 0 ? 2 : 3;
  if (in.size() < want) return InvalidArgument("expects {} inputs, has {}", want, in.size());
  const DataType dt = in[0]->dt;
  if (ts != kTensorScatter.end()) {  // tensor, indices, updates
    ValueId upd = V(*in[2]);
    if (op == "TensorScatterSub") upd = Emit1("Neg", {upd});
    SetOut1(Emit("ScatterND", {V(*in[0]), I64(*in[1]), upd}, {{"reduction", ts->second}}, 1, true)[0], in[0]->rank, dt);
    return Status::Ok();
  }
  // data, segment_ids[, num_segments]: out[ids[i...], ...] (reduce)= data[i..., ...]; rows no id
  // names hold the reduction's identity (sum 0, prod 1, max lowest, min highest).
  if (in[0]->rank < 0 || in[1]->rank < 0) return Unsupported("data and segment_ids of unknown rank");
  ValueId ids = I64(*in[1]);
  ValueId num =
      want == 2
          ? Emit1("Add", {Emit1("ReduceMax", {Emit1("Reshape", {ids, C(I64Vec({-1}))})}, {{"keepdims", int64_t{1}}}),
                          C(I64Vec({1}))})
          : Emit1("Reshape", {I64(*in[2]), C(I64Vec({1}))});
  ValueId rest = Emit1("Slice", {Emit1("Shape", {V(*in[0])}), C(I64Vec({in[1]->rank})),
                                 C(I64Vec({std::numeric_limits<int64_t>::max()}))});
  ValueId shape = Emit1("Concat", {num, rest}, {{"axis", int64_t{0}}});
  const std::string& red = seg->second;
  HostTensor init;
  if (dt == DT_INT32 || dt == DT_INT64) {
    const bool i32 = dt == DT_INT32;
    int64_t v = red == "mul" ? 1 : 0;
    if (red == "max") v = i32 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int64_t>::min();
    if (red == "min") v = i32 ? std::numeric_limits<int32_t>::max() : std::numeric_limits<int64_t>::max();
    init = IntTensor(dt, {}, {v});
  } else {
    const double big = dt == DT_DOUBLE ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
    init = ScalarOf(dt, red == "mul" ? 1 : red == "max" ? -big : red == "min" ? big : 0);
  }
  ValueId base = Emit1("Expand", {C(std::move(init)), shape});
  ValueId idx = Emit1("Unsqueeze", {ids, C(I64Vec({-1}))});
  SetOut1(Emit("ScatterND", {base, idx, V(*in[0])}, {{"reduction", red}}, 1, true)[0], in[0]->rank - in[1]->rank + 1,
          dt);
  return Status::Ok();
}

// NonMaxSuppressionV2..V5: boxes [n, 4], scores [n], max_output_size, iou_threshold
// [, score_threshold[, soft_nms_sigma]]: ONNX's NonMaxSuppression on one batch and class (the same
// greedy selection: by score, stable, a box suppressed where IoU > the threshold, kept where
// score > score_threshold), its box column. V4/V5 may pad the indices (and V5's scores) with zeros
// to max_output_size and also give the count; V5 only without soft NMS (sigma 0).
Status Converter::NonMaxSuppression(const tf::NodeDef& n, std::vector<TRef*>& in) {
  const int version = n.op().back() - '0';
  if (version == 5 && (!in[5]->c || in[5]->c->ToDoubleVector() != std::vector<double>{0}))
    return Unsupported("soft NMS (a soft_nms_sigma other than a constant 0)");
  auto vec1 = [&](ValueId v) { return Emit1("Reshape", {v, C(I64Vec({1}))}); };
  std::vector<ValueId> ins = {Emit1("Unsqueeze", {V(*in[0]), C(I64Vec({0}))}),
                              Emit1("Unsqueeze", {V(*in[1]), C(I64Vec({0, 1}))}), vec1(I64(*in[2])), vec1(V(*in[3]))};
  if (version >= 3) ins.push_back(vec1(V(*in[4])));
  ValueId box =
      Emit1("Gather", {Emit1("NonMaxSuppression", ins), C(IntTensor(DT_INT64, {}, {2}))}, {{"axis", int64_t{1}}});
  ValueId count = Emit1("Shape", {box});
  std::vector<ValueId> outs = {box};
  if (version == 5) outs.push_back(Emit1("Gather", {V(*in[1]), box}, {{"axis", int64_t{0}}}));
  if (version >= 4 && AttrB(n, "pad_to_max_output_size"))
    for (ValueId& o : outs)
      o = Emit1("Pad", {o, Emit1("Concat", {C(I64Vec({0})), Emit1("Sub", {vec1(I64(*in[2])), count})},
                                 {{"axis", int64_t{0}}})});
  std::vector<TRef> refs;
  auto add = [&](ValueId v, DataType dt, int rank) {
    TRef r;
    const size_t k = refs.size();
    r.v = g_->AddValue(k == 0 ? cur_ : fmt::format("{}:{}", cur_, k));
    if (dt == DT_INT32)
      g_->AddNode(fmt::format("{}/_ge_out{}", cur_, k), "Cast", {v}, {r.v}, {{"to", int64_t{ToOnnxDataType(dt)}}});
    else
      g_->AddNode(fmt::format("{}/_ge_out{}", cur_, k), "Identity", {v}, {r.v});
    r.dt = dt;
    r.rank = rank;
    refs.push_back(r);
  };
  add(outs[0], DT_INT32, 1);
  if (version == 5) add(outs[1], in[1]->dt, 1);
  if (version >= 4) add(Emit1("Reshape", {count, C(I64Vec({}))}), DT_INT32, 0);
  SetOut(refs);
  return Status::Ok();
}

// RGBToHSV / HSVToRGB along the last axis (of 3), in TF's formulas: h in [0, 1) (a sixth per
// sector), s = range / max (0 where max is 0), v = max; back: each channel
// v * (1 - s + s * clamp(f(6h), 0, 1)) with f the channel's piecewise-linear hue ramp.
// AdjustSaturation scales s (clamped to [0, 1]), AdjustHue turns h by delta (mod 1), in HSV.
Status Converter::ColorSpace(const tf::NodeDef& n, std::vector<TRef*>& in) {
  const DataType dt = in[0]->dt;
  ValueId x = V(*in[0]);
  auto ch = [&](int64_t k) { return Emit1("Gather", {x, C(IntTensor(DT_INT64, {}, {k}))}, {{"axis", int64_t{-1}}}); };
  auto k = [&](double v) { return C(ScalarOf(dt, v)); };
  auto bin = [&](const char* type, ValueId a, ValueId b) { return Emit1(type, {a, b}); };
  auto where = [&](ValueId c, ValueId a, ValueId b) { return Emit1("Where", {c, a, b}); };
  auto clamp01 = [&](ValueId v) { return Emit1("Min", {Emit1("Max", {v, k(0)}), k(1)}); };
  std::vector<ValueId> c3 = {ch(0), ch(1), ch(2)};
  if (n.op() != "HSVToRGB") {  // RGB -> HSV
    const ValueId r = c3[0], g = c3[1], b = c3[2];
    ValueId v = Emit1("Max", {r, g, b}), range = bin("Sub", v, Emit1("Min", {r, g, b}));
    ValueId s = where(bin("Greater", v, k(0)), bin("Div", range, v), k(0));
    ValueId norm = bin("Div", k(1), bin("Mul", range, k(6)));
    ValueId h = where(bin("Equal", r, v), bin("Mul", norm, bin("Sub", g, b)),
                      where(bin("Equal", g, v), bin("Add", bin("Mul", norm, bin("Sub", b, r)), k(2.0 / 6)),
                            bin("Add", bin("Mul", norm, bin("Sub", r, g)), k(4.0 / 6))));
    h = where(bin("Greater", range, k(0)), h, k(0));
    h = where(bin("Less", h, k(0)), bin("Add", h, k(1)), h);
    c3 = {h, s, v};
  }
  if (n.op() == "AdjustSaturation") c3[1] = clamp01(bin("Mul", c3[1], V(*in[1])));
  if (n.op() == "AdjustHue") {
    ValueId h = bin("Add", c3[0], V(*in[1]));
    c3[0] = bin("Sub", h, Emit1("Floor", {h}));
  }
  if (n.op() != "RGBToHSV") {  // HSV -> RGB
    const ValueId h = c3[0], s = c3[1], v = c3[2];
    ValueId dh = bin("Mul", h, k(6)), one_s = bin("Sub", k(1), s);
    auto ramp = [&](double shift, bool rising) {  // clamp(|dh - 3| - 1) or clamp(2 - |dh - shift|)
      ValueId d = Emit1("Abs", {bin("Sub", dh, k(shift))});
      ValueId f = rising ? bin("Sub", d, k(1)) : bin("Sub", k(2), d);
      return bin("Mul", bin("Add", one_s, bin("Mul", s, clamp01(f))), v);
    };
    c3 = {ramp(3, true), ramp(2, false), ramp(4, false)};
  }
  for (ValueId& o : c3) o = Emit1("Unsqueeze", {o, C(I64Vec({-1}))});
  SetOut1(Emit("Concat", c3, {{"axis", int64_t{-1}}}, 1, true)[0], in[0]->rank, dt);
  return Status::Ok();
}

Status Converter::ComposedOp(const tf::NodeDef& n, std::vector<TRef*>& in, bool* done) {
  const std::string& op = n.op();
  GE_RETURN_IF_ERROR(ScatterOp(n, in, done));
  if (*done) return Status::Ok();
  *done = true;
  static const std::map<std::string, size_t> kInputs = {{"Mod", 2},
                                                        {"TruncateMod", 2},
                                                        {"Erfc", 1},
                                                        {"IsFinite", 1},
                                                        {"Xlogy", 2},
                                                        {"Xdivy", 2},
                                                        {"Xlog1py", 2},
                                                        {"ApproximateEqual", 2},
                                                        {"MatrixDeterminant", 1},
                                                        {"MatrixDiag", 1},
                                                        {"MatrixDiagPart", 1},
                                                        {"MatrixSetDiag", 2},
                                                        {"FakeQuantWithMinMaxArgs", 1},
                                                        {"FakeQuantWithMinMaxVars", 3},
                                                        {"LinSpace", 3},
                                                        {"Cross", 2},
                                                        {"ShapeN", 1},
                                                        {"NonMaxSuppressionV2", 4},
                                                        {"DynamicStitch", 2},
                                                        {"DynamicPartition", 2},
                                                        {"ParallelDynamicStitch", 2},
                                                        {"NonMaxSuppressionV3", 5},
                                                        {"NonMaxSuppressionV4", 5},
                                                        {"NonMaxSuppressionV5", 6},
                                                        {"RGBToHSV", 1},
                                                        {"HSVToRGB", 1},
                                                        {"AdjustSaturation", 2},
                                                        {"AdjustHue", 2},
                                                        {"AdjustContrastv2", 2},
                                                        {"BroadcastArgs", 2},
                                                        {"Roll", 3}};
  auto k = kInputs.find(op);
  if (k == kInputs.end()) {
    *done = false;
    return Status::Ok();
  }
  if (in.size() < k->second) return InvalidArgument("expects {} inputs, has {}", k->second, in.size());
  const int r0 = in[0]->rank, rb = MaxRank(in);
  const DataType d0 = in[0]->dt;
  auto out1 = [&](const std::string& type, std::vector<ValueId> ins, AttrMap attrs, int rank, DataType dt) {
    SetOut1(Emit(type, std::move(ins), std::move(attrs), 1, true)[0], rank, dt);
    return Status::Ok();
  };
  if (op == "Mod" || op == "TruncateMod")  // C semantics: the result has the dividend's sign
    return out1("Mod", {V(*in[0]), V(*in[1])}, {{"fmod", int64_t{1}}}, rb, d0);
  if (op == "Erfc") return out1("Sub", {C(ScalarOf(d0, 1)), Emit1("Erf", {V(*in[0])})}, {}, r0, d0);
  if (op == "IsFinite") {
    ValueId x = V(*in[0]);
    return out1("Not", {Emit1("Or", {Emit1("IsInf", {x}), Emit1("IsNaN", {x})})}, {}, r0, DT_BOOL);
  }
  if (op == "Xlogy" || op == "Xdivy" || op == "Xlog1py") {  // 0 where x == 0, whatever y is
    ValueId x = V(*in[0]), y = V(*in[1]), zero = C(ScalarOf(d0, 0));
    if (op == "Xlog1py") y = Emit1("Add", {y, C(ScalarOf(d0, 1))});
    ValueId t = op == "Xdivy" ? Emit1("Div", {x, y}) : Emit1("Mul", {x, Emit1("Log", {y})});
    return out1("Where", {Emit1("Equal", {x, zero}), zero, t}, {}, rb, d0);
  }
  if (op == "ApproximateEqual") {
    ValueId d = Emit1("Abs", {Emit1("Sub", {V(*in[0]), V(*in[1])})});
    return out1("Less", {d, C(ScalarOf(d0, AttrF(n, "tolerance", 1e-5f)))}, {}, rb, DT_BOOL);
  }
  if (op == "MatrixDeterminant") return out1("Det", {V(*in[0])}, {}, r0 < 0 ? -1 : r0 - 2, d0);
  if (op == "MatrixDiag") {  // [..., n] -> [..., n, n]
    ValueId x = V(*in[0]), nn = Dim(x, -1);
    return out1("Mul", {Emit1("Unsqueeze", {x, C(I64Vec({-1}))}), Eye(nn, nn, d0)}, {}, r0 < 0 ? -1 : r0 + 1, d0);
  }
  if (op == "MatrixDiagPart") {  // [..., m, n] -> [..., min(m, n)]
    ValueId x = V(*in[0]), nn = Dim(x, -1);
    ValueId s =
        Emit1("ReduceSum", {Emit1("Mul", {x, Eye(Dim(x, -2), nn, d0)}), C(I64Vec({-1}))}, {{"keepdims", int64_t{0}}});
    return out1("Slice", {s, C(I64Vec({0})), Emit1("Reshape", {nn, C(I64Vec({1}))}), C(I64Vec({-1}))}, {},
                r0 < 0 ? -1 : r0 - 1, d0);
  }
  if (op == "MatrixSetDiag") {  // [..., m, n] with m <= n, diagonal [..., m]
    ValueId x = V(*in[0]), e = Eye(Dim(x, -2), Dim(x, -1), d0);
    ValueId off = Emit1("Sub", {x, Emit1("Mul", {x, e})});
    return out1("Add", {off, Emit1("Mul", {Emit1("Unsqueeze", {V(*in[1]), C(I64Vec({-1}))}), e})}, {}, r0, d0);
  }
  if (op == "FakeQuantWithMinMaxArgs" || op == "FakeQuantWithMinMaxVars") {
    float lo = AttrF(n, "min", -6), hi = AttrF(n, "max", 6);
    if (op == "FakeQuantWithMinMaxVars") {
      if (!in[1]->c || !in[2]->c || in[1]->c->NumElements() != 1 || in[2]->c->NumElements() != 1)
        return Unsupported("min and max must be scalar constants");
      lo = static_cast<float>(in[1]->c->ToDoubleVector()[0]);
      hi = static_cast<float>(in[2]->c->ToDoubleVector()[0]);
    }
    if (!(lo <= 0 && hi >= 0 && lo < hi)) return InvalidArgument("the range [{}, {}] must hold 0", lo, hi);
    FakeQuant(n, V(*in[0]), lo, hi);
    outs_[cur_][0].rank = r0;
    return Status::Ok();
  }
  if (op == "LinSpace") {  // start + i * (stop - start) / (num - 1), the last one stop
    ValueId num = Emit1("Cast", {V(*in[2])}, {{"to", int64_t{ToOnnxDataType(d0)}}});
    ValueId i = Emit1("Range", {C(ScalarOf(d0, 0)), num, C(ScalarOf(d0, 1))});
    ValueId span = Emit1("Sub", {V(*in[1]), V(*in[0])});
    ValueId step = Emit1("Div", {span, Emit1("Max", {Emit1("Sub", {num, C(ScalarOf(d0, 1))}), C(ScalarOf(d0, 1))})});
    ValueId y = Emit1("Add", {V(*in[0]), Emit1("Mul", {i, step})});
    ValueId last = Emit1("Equal", {i, Emit1("Sub", {num, C(ScalarOf(d0, 1))})});
    ValueId last_not_first = Emit1("And", {last, Emit1("Greater", {i, C(ScalarOf(d0, 0))})});
    return out1("Where", {last_not_first, V(*in[1]), y}, {}, 1, d0);
  }
  if (op == "Cross") {  // along the last axis, of length 3
    auto pick = [&](TRef* t, std::vector<int64_t> idx) {
      return Emit1("Gather", {V(*t), C(I64Vec(idx))}, {{"axis", int64_t{-1}}});
    };
    ValueId p = Emit1("Mul", {pick(in[0], {1, 2, 0}), pick(in[1], {2, 0, 1})});
    ValueId q = Emit1("Mul", {pick(in[0], {2, 0, 1}), pick(in[1], {1, 2, 0})});
    return out1("Sub", {p, q}, {}, rb, d0);
  }
  if (op.rfind("NonMaxSuppressionV", 0) == 0) return NonMaxSuppression(n, in);
  if (op == "DynamicStitch" || op == "ParallelDynamicStitch") {  // N indices, N data
    const size_t n_in = in.size() / 2;
    if (in.size() % 2) return InvalidArgument("expects N indices and N data inputs, has {} inputs", in.size());
    const ValueId kEnd = C(I64Vec({std::numeric_limits<int64_t>::max()}));
    std::vector<ValueId> idx, data;
    for (size_t m = 0; m < n_in; ++m) {  // indices[m] -> [k, 1], data[m] -> [k, rest...]
      if (in[m]->rank < 0) return Unsupported("indices {} of unknown rank", m);
      idx.push_back(Emit1("Reshape", {I64(*in[m]), C(I64Vec({-1, 1}))}));
      ValueId rest = Emit1("Slice", {Emit1("Shape", {V(*in[n_in + m])}), C(I64Vec({in[m]->rank})), kEnd});
      ValueId flat = Emit1("Concat", {C(I64Vec({-1})), rest}, {{"axis", int64_t{0}}});
      data.push_back(Emit1("Reshape", {V(*in[n_in + m]), flat}));
    }
    ValueId all_idx = Emit1("Concat", idx, {{"axis", int64_t{0}}});
    ValueId all_data = Emit1("Concat", data, {{"axis", int64_t{0}}});
    ValueId rows =
        Emit1("Add", {Emit1("ReduceMax", {Emit1("Reshape", {all_idx, C(I64Vec({-1}))})}, {{"keepdims", int64_t{1}}}),
                      C(I64Vec({1}))});
    ValueId shape = Emit1("Concat", {rows, Emit1("Slice", {Emit1("Shape", {all_data}), C(I64Vec({1})), kEnd})},
                          {{"axis", int64_t{0}}});
    const DataType dt = in[n_in]->dt;
    ValueId base = Emit1("Expand", {C(ScalarOf(dt, 0)), shape});
    const int rank = in[n_in]->rank < 0 ? -1 : 1 + in[n_in]->rank - in[0]->rank;
    return out1("ScatterND", {base, all_idx, all_data}, {}, rank, dt);  // in order: a later index wins
  }
  if (op == "DynamicPartition") {  // data, partitions -> num_partitions outputs, each in data order
    if (in[1]->rank < 0) return Unsupported("partitions of unknown rank");
    const ValueId kEnd = C(I64Vec({std::numeric_limits<int64_t>::max()}));
    ValueId rest = Emit1("Slice", {Emit1("Shape", {V(*in[0])}), C(I64Vec({in[1]->rank})), kEnd});
    ValueId flat = Emit1("Reshape", {V(*in[0]), Emit1("Concat", {C(I64Vec({-1})), rest}, {{"axis", int64_t{0}}})});
    ValueId part = Emit1("Reshape", {V(*in[1]), C(I64Vec({-1}))});
    std::vector<TRef> refs(std::max<int64_t>(AttrI(n, "num_partitions", 1), 0));
    for (size_t p = 0; p < refs.size(); ++p) {
      ValueId is_p = Emit1("Equal", {part, C(IntTensor(in[1]->dt, {}, {static_cast<int64_t>(p)}))});
      refs[p].v = g_->AddValue(p == 0 ? cur_ : fmt::format("{}:{}", cur_, p));
      g_->AddNode(fmt::format("{}/_ge_part{}", cur_, p), "Compress", {flat, is_p}, {refs[p].v}, {{"axis", int64_t{0}}});
      refs[p].rank = r0 < 0 ? -1 : 1 + r0 - in[1]->rank;
      refs[p].dt = d0;
    }
    SetOut(refs);
    return Status::Ok();
  }
  if (op == "RGBToHSV" || op == "HSVToRGB" || op == "AdjustSaturation" || op == "AdjustHue") return ColorSpace(n, in);
  if (op == "ShapeN") {
    const DataType dt = AttrT(n, "out_type") == DT_INT64 ? DT_INT64 : DT_INT32;
    std::vector<TRef> refs(in.size());
    for (size_t j = 0; j < in.size(); ++j) {
      refs[j].v = g_->AddValue(j == 0 ? cur_ : fmt::format("{}:{}", cur_, j));
      g_->AddNode(fmt::format("{}/_ge_shape{}", cur_, j), "Cast", {Emit1("Shape", {V(*in[j])})}, {refs[j].v},
                  {{"to", int64_t{ToOnnxDataType(dt)}}});
      refs[j].rank = 1;
      refs[j].dt = dt;
    }
    SetOut(refs);
    return Status::Ok();
  }
  if (op == "AdjustContrastv2") {  // (x - mean) * factor + mean, the mean over height and width
    ValueId x = V(*in[0]);
    ValueId mean = Emit1("ReduceMean", {x}, {{"axes", std::vector<int64_t>{-3, -2}}, {"keepdims", int64_t{1}}});
    return out1("Add", {Emit1("Mul", {Emit1("Sub", {x, mean}), V(*in[1])}), mean}, {}, r0, d0);
  }
  if (op == "BroadcastArgs") {  // the broadcast shape of two shapes
    ValueId z = C(ScalarOf(DT_UINT8, 0));
    ValueId s = Emit1("Shape", {Emit1("Add", {Emit1("Expand", {z, I64(*in[0])}), Emit1("Expand", {z, I64(*in[1])})})});
    return out1("Cast", {s}, {{"to", int64_t{ToOnnxDataType(d0)}}}, 1, d0);
  }
  // Roll: input, shift, axis (constants): each axis rotated by its shift (mod its length).
  std::vector<int64_t> shift, axes;
  GE_RETURN_IF_ERROR(Ints(in[1], "shift", &shift));
  GE_RETURN_IF_ERROR(Ints(in[2], "axis", &axes));
  if (shift.size() != axes.size()) return InvalidArgument("{} shifts for {} axes", shift.size(), axes.size());
  ValueId x = V(*in[0]);
  const ValueId kEnd = C(I64Vec({std::numeric_limits<int64_t>::max()}));
  for (size_t j = 0; j < axes.size(); ++j) {
    ValueId len = Emit1("Reshape", {Dim(x, axes[j]), C(I64Vec({1}))});
    ValueId cut = Emit1("Sub", {len, Emit1("Mod", {C(I64Vec({shift[j]})), len})});
    ValueId ax = C(I64Vec({axes[j]}));
    ValueId tail = Emit1("Slice", {x, cut, kEnd, ax}), head = Emit1("Slice", {x, C(I64Vec({0})), cut, ax});
    x = Emit1("Concat", {tail, head}, {{"axis", axes[j]}});
  }
  return out1("Identity", {x}, {}, r0, d0);
}

}  // namespace ge::tf_frontend
