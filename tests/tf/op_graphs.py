#!/usr/bin/python3
"""Single-op TensorFlow graphs written here in GraphDef text format (.pbtxt), run by `ge run`
(sink and host) and checked against numpy: the TF ops the frozen test graphs do not cover.
Each case: constants (Const nodes), one op node named `out`, and the expected numpy value."""
import argparse
import colorsys
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

DT = {np.float32: "DT_FLOAT", np.float64: "DT_DOUBLE", np.int32: "DT_INT32", np.int64: "DT_INT64", np.bool_: "DT_BOOL"}
VAL = {np.float32: "float_val", np.float64: "double_val", np.int32: "int_val", np.int64: "int64_val", np.bool_: "bool_val"}


def const(name, arr):
    arr = np.asarray(arr)
    t = arr.dtype.type
    dims = " ".join(f"dim {{ size: {d} }}" for d in arr.shape)
    vals = " ".join(f"{VAL[t]}: {('true' if v else 'false') if t is np.bool_ else repr(v.item())}" for v in arr.reshape(-1))
    return (f'node {{ name: "{name}" op: "Const" attr {{ key: "dtype" value {{ type: {DT[t]} }} }} '
            f'attr {{ key: "value" value {{ tensor {{ dtype: {DT[t]} tensor_shape {{ {dims} }} {vals} }} }} }} }}\n')


def attr_text(k, v):
    if isinstance(v, bool):
        return f'attr {{ key: "{k}" value {{ b: {"true" if v else "false"} }} }}'
    if isinstance(v, int):
        return f'attr {{ key: "{k}" value {{ i: {v} }} }}'
    if isinstance(v, float):
        return f'attr {{ key: "{k}" value {{ f: {v!r} }} }}'
    if isinstance(v, str):
        return f'attr {{ key: "{k}" value {{ s: "{v}" }} }}'
    if isinstance(v, type):
        return f'attr {{ key: "{k}" value {{ type: {DT[v]} }} }}'
    raise TypeError(v)


def graph(op, inputs, attrs=None):
    text = ""
    names = []
    for i, a in enumerate(inputs):
        text += const(f"in{i}", a)
        names.append(f"in{i}")
    ins = " ".join(f'input: "{n}"' for n in names)
    at = " ".join(attr_text(k, v) for k, v in (attrs or {}).items())
    text += f'node {{ name: "out" op: "{op}" {ins} {at} }}\n'
    return text


def cases():
    a = np.array([[7, -7, 5], [-5, 9, -9]], np.int32)
    b = np.array([[2, 2, -3], [3, -4, 4]], np.int32)
    f = np.array([[1.5, -2.25, 3.0], [-0.5, 7.0, -8.5]], np.float32)
    g = np.array([[0.5, 2.0, -1.5], [0.25, -3.0, 2.5]], np.float32)
    yield "FloorDiv_int", graph("FloorDiv", [a, b]), a // b
    yield "FloorMod_int", graph("FloorMod", [a, b]), np.mod(a, b)
    yield "FloorDiv_float", graph("FloorDiv", [f, g]), np.floor_divide(f, g)
    yield "FloorMod_float", graph("FloorMod", [f, g]), (f - np.floor(f / g) * g).astype(np.float32)
    yield "NotEqual", graph("NotEqual", [a, b]), a != b
    yield "DivNoNan", graph("DivNoNan", [f, np.array([[1, 0, 2], [0, 4, 1]], np.float32)]), \
        np.array([[1.5, 0, 1.5], [0, 1.75, -8.5]], np.float32)
    yield "AddN", graph("AddN", [f, g, f], {"N": 3}), f + g + f
    yield "L2Loss", graph("L2Loss", [f]), np.array((f.astype(np.float64) ** 2).sum() / 2, np.float32)
    yield "ArgMax", graph("ArgMax", [f, np.array(1, np.int32)], {"output_type": np.int32}), \
        np.argmax(f, 1).astype(np.int32)
    yield "ArgMin_int64", graph("ArgMin", [f, np.array(0, np.int32)]), np.argmin(f, 0).astype(np.int64)
    yield "All", graph("All", [a > 0, np.array([1], np.int32)]), np.all(a > 0, 1)
    yield "Any_keep", graph("Any", [a > 0, np.array([0], np.int32)], {"keep_dims": True}), np.any(a > 0, 0, keepdims=True)
    yield "Cumsum_excl_rev", graph("Cumsum", [f, np.array(1, np.int32)], {"exclusive": True, "reverse": True}), \
        np.array([[0.75, 3.0, 0], [-1.5, -8.5, 0]], np.float32)
    yield "OneHot", graph("OneHot", [np.array([0, 2, 1], np.int32), np.array(3, np.int32),
                                    np.array(5.0, np.float32), np.array(-1.0, np.float32)]), \
        np.where(np.eye(3)[[0, 2, 1]] > 0, 5.0, -1.0).astype(np.float32)
    yield "ReverseV2", graph("ReverseV2", [f, np.array([1], np.int32)]), f[:, ::-1]
    yield "BroadcastTo", graph("BroadcastTo", [np.array([1.0, 2.0, 3.0], np.float32), np.array([2, 3], np.int32)]), \
        np.broadcast_to(np.array([1.0, 2.0, 3.0], np.float32), (2, 3))
    yield "ClipByValue", graph("ClipByValue", [f, np.array(-1.0, np.float32), np.array(2.0, np.float32)]), \
        np.clip(f, -1, 2)
    yield "EuclideanNorm", graph("EuclideanNorm", [f, np.array([1], np.int32)]), \
        np.sqrt((f.astype(np.float64) ** 2).sum(1)).astype(np.float32)
    yield "Where_coords", graph("Where", [a > 0]), np.argwhere(a > 0).astype(np.int64)
    yield "Rint", graph("Rint", [np.array([0.5, 1.5, 2.5, -0.5], np.float32)]), np.array([0, 2, 2, -0.0], np.float32)
    yield "Cast_bool", graph("Cast", [f], {"DstT": np.bool_}), f != 0
    # TF1 conditional: both branches computed, Merge selects by the predicate (either way).
    for p in (True, False):
        text = const("x", f) + const("p", np.array(p)) + """
node { name: "sw" op: "Switch" input: "x" input: "p" }
node { name: "t" op: "Neg" input: "sw:1" }
node { name: "e" op: "Abs" input: "sw" }
node { name: "out" op: "Merge" input: "e" input: "t" }
"""
        yield f"Switch_Merge_{p}", text, -f if p else np.abs(f)
    yield "Expm1", graph("Expm1", [f]), (np.exp(f.astype(np.float64)) - 1).astype(np.float32)
    yield "Unique", graph("Unique", [np.array([3, 1, 3, 2, 1], np.int32)]), np.array([3, 1, 2], np.int32)
    yield "ReverseSequence", graph("ReverseSequence", [f, np.array([2, 3], np.int64)], {"batch_dim": 0, "seq_dim": 1}), \
        np.array([[-2.25, 1.5, 3.0], [-8.5, 7.0, -0.5]], np.float32)
    m = np.arange(16, dtype=np.float32).reshape(4, 4)
    yield "MatrixBandPart_1_0", graph("MatrixBandPart", [m, np.array(1, np.int64), np.array(0, np.int64)]), \
        np.where((np.arange(4)[:, None] - np.arange(4)[None, :] >= 0) &
                 (np.arange(4)[:, None] - np.arange(4)[None, :] <= 1), m, 0).astype(np.float32)
    yield "MatrixBandPart_all_2", graph("MatrixBandPart", [m, np.array(-1, np.int64), np.array(2, np.int64)]), \
        np.where(np.arange(4)[None, :] - np.arange(4)[:, None] <= 2, m, 0).astype(np.float32)
    x4 = np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3) / 7
    yield "MaxPoolV2", graph("MaxPoolV2", [x4, np.array([1, 2, 2, 1], np.int32), np.array([1, 2, 2, 1], np.int32)],
                             {"padding": "VALID"}), x4.reshape(2, 2, 2, 2, 2, 3).max(axis=(2, 4))
    xe = np.array([1, 2, 3, 4], np.float32).reshape(1, 2, 2, 1)
    text = const("x", xe) + const("w", np.full((1, 1, 1, 1), 2.0, np.float32)) + """
node { name: "out" op: "Conv2D" input: "x" input: "w" attr { key: "padding" value { s: "EXPLICIT" } }
  attr { key: "strides" value { list { i: 1 i: 1 i: 1 i: 1 } } }
  attr { key: "explicit_paddings" value { list { i: 0 i: 0 i: 1 i: 0 i: 0 i: 1 i: 0 i: 0 } } } }
"""
    yield "Conv2D_explicit", text, np.pad(xe, ((0, 0), (1, 0), (0, 1), (0, 0))) * 2
    yield "Sum_float64", graph("Sum", [f.astype(np.float64), np.array([0, 1], np.int32)]), \
        np.array(f.astype(np.float64).sum())


    # Composite ops: elementwise, scatter and segment reductions, matrix, quantization, shapes.
    ai, bi = np.array([7, -7, 5, -5], np.int32), np.array([3, 3, -3, -3], np.int32)
    yield "Mod_int", graph("Mod", [ai, bi]), np.fmod(ai, bi).astype(np.int32)
    yield "TruncateMod_float", graph("TruncateMod", [f, g]), np.fmod(f, g).astype(np.float32)
    yield "Erfc", graph("Erfc", [f]), np.array([1 - math.erf(v) for v in f.reshape(-1).astype(np.float64)],
                                               np.float32).reshape(f.shape)
    fi = np.array([1.0, np.inf, -np.inf, np.nan, 0.0], np.float32)
    yield "IsFinite", graph("IsFinite", [fi]), np.isfinite(fi)
    x0 = np.array([0.0, 2.0, 0.0, 1.5], np.float32)
    y0 = np.array([0.0, 3.0, -1.0, 0.5], np.float32)
    with np.errstate(all="ignore"):
        yield "Xlogy", graph("Xlogy", [x0, y0]), np.where(x0 == 0, 0, x0 * np.log(y0)).astype(np.float32)
        yield "Xdivy", graph("Xdivy", [x0, y0]), np.where(x0 == 0, 0, x0 / y0).astype(np.float32)
        yield "Xlog1py", graph("Xlog1py", [x0, y0]), np.where(x0 == 0, 0, x0 * np.log1p(y0)).astype(np.float32)
    yield "ApproximateEqual", graph("ApproximateEqual", [f, f + np.float32(0.05)], {"tolerance": 0.1}), \
        np.ones(f.shape, bool)
    t = np.arange(8, dtype=np.float32)
    ind = np.array([[4], [3], [1], [7]], np.int32)
    up = np.array([9, 10, 11, 12], np.float32)
    for op, fn in (("Update", lambda a, b: b), ("Add", np.add), ("Sub", np.subtract), ("Max", np.maximum),
                   ("Min", np.minimum)):
        exp = t.copy()
        exp[ind[:, 0]] = fn(exp[ind[:, 0]], up)
        yield f"TensorScatter{op}", graph(f"TensorScatter{op}", [t, ind, up]), exp
    data = np.array([[1, 2], [3, 4], [5, 6], [7, 8]], np.float32)
    ids = np.array([0, 2, 0, 2], np.int32)
    for op, fn, init in (("Sum", np.add, 0), ("Prod", np.multiply, 1), ("Max", np.maximum, np.finfo(np.float32).min),
                         ("Min", np.minimum, np.finfo(np.float32).max)):
        exp = np.full((3, 2), init, np.float32)
        for i, s_ in enumerate(ids):
            exp[s_] = fn(exp[s_], data[i])
        yield f"UnsortedSegment{op}", graph(f"UnsortedSegment{op}", [data, ids, np.array(3, np.int32)]), exp
    sids = np.array([0, 0, 1, 1], np.int64)
    yield "SegmentSum", graph("SegmentSum", [data, sids]), np.array([[4, 6], [12, 14]], np.float32)
    yield "SegmentProd", graph("SegmentProd", [data, sids]), np.array([[3, 8], [35, 48]], np.float32)
    mats = np.array([[[2, 1], [1, 3]], [[1, 2], [3, 4]]], np.float64)
    yield "MatrixDeterminant", graph("MatrixDeterminant", [mats]), np.linalg.det(mats)
    d = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    yield "MatrixDiag", graph("MatrixDiag", [d]), np.stack([np.diag(r) for r in d])
    rect = np.arange(12, dtype=np.float32).reshape(3, 4)
    yield "MatrixDiagPart", graph("MatrixDiagPart", [rect]), np.diagonal(rect).copy()
    sq = np.arange(9, dtype=np.float32).reshape(3, 3)
    exp = sq.copy()
    np.fill_diagonal(exp, [-1, -2, -3])
    yield "MatrixSetDiag", graph("MatrixSetDiag", [sq, np.array([-1, -2, -3], np.float32)]), exp

    def fake_quant(x, lo, hi, bits=8, narrow=False):  # TF's nudged fake quantization, in float32
        qmin, qmax = np.float32(1 if narrow else 0), np.float32(2 ** bits - 1)
        scale = (np.float32(hi) - np.float32(lo)) / (qmax - qmin)
        zp = qmin - np.float32(lo) / scale
        zp = qmin if zp < qmin else qmax if zp > qmax else np.float32(np.round(zp))
        nlo, nhi = (qmin - zp) * scale, (qmax - zp) * scale
        c = np.clip(x, nlo, nhi)
        return (np.floor((c - nlo) / scale + np.float32(0.5)) * scale + nlo).astype(np.float32)
    fq = np.array([-7.0, -1.3, -0.02, 0.0, 0.7, 2.49, 5.9, 6.5], np.float32)
    yield "FakeQuantWithMinMaxArgs", graph("FakeQuantWithMinMaxArgs", [fq], {"min": -6.0, "max": 6.0}), \
        fake_quant(fq, -6.0, 6.0)
    yield "FakeQuantWithMinMaxVars_narrow4", graph("FakeQuantWithMinMaxVars",
                                                   [fq, np.array(-2.0, np.float32), np.array(3.0, np.float32)],
                                                   {"num_bits": 4, "narrow_range": True}), \
        fake_quant(fq, -2.0, 3.0, 4, True)
    yield "LinSpace", graph("LinSpace", [np.array(1.0, np.float32), np.array(3.0, np.float32), np.array(5, np.int32)]), \
        np.linspace(1, 3, 5).astype(np.float32)
    ca = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    cb = np.array([[7, 8, 9], [-1, 0, 2]], np.float32)
    yield "Cross", graph("Cross", [ca, cb]), np.cross(ca, cb)
    yield "ShapeN", graph("ShapeN", [rect, d], {"N": 2}), np.array([3, 4], np.int32)
    img = (np.arange(2 * 3 * 3 * 2, dtype=np.float32).reshape(2, 3, 3, 2) % 7) / 3
    mean = img.mean(axis=(1, 2), keepdims=True)
    yield "AdjustContrastv2", graph("AdjustContrastv2", [img, np.array(1.5, np.float32)]), \
        ((img - mean) * np.float32(1.5) + mean).astype(np.float32)
    yield "BroadcastArgs", graph("BroadcastArgs", [np.array([2, 1, 3], np.int32), np.array([4, 1], np.int32)]), \
        np.array([2, 4, 3], np.int32)
    yield "Roll", graph("Roll", [rect, np.array([1, -5], np.int32), np.array([0, 1], np.int32)]), \
        np.roll(rect, (1, -5), axis=(0, 1))


    def nms(boxes, scores, k, iou_t, score_t=-np.inf):  # greedy, as TF documents it
        def iou(a, b):
            a = [min(a[0], a[2]), min(a[1], a[3]), max(a[0], a[2]), max(a[1], a[3])]
            b = [min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])]
            ih = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
            iw = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
            inter = ih * iw
            union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
            return inter / union if union > 0 else 0.0
        keep = []
        for i in np.argsort(-scores, kind="stable"):
            if scores[i] <= score_t or len(keep) >= k:
                continue
            if all(iou(boxes[i], boxes[j]) <= iou_t for j in keep):
                keep.append(int(i))
        return np.array(keep, np.int32)
    boxes = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [1, 10.1, 0, 11.1],
                      [0, 100, 1, 101]], np.float32)
    scores = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], np.float32)
    yield "NonMaxSuppressionV2", graph("NonMaxSuppressionV2", [boxes, scores, np.array(3, np.int32),
                                                             np.array(0.5, np.float32)]), nms(boxes, scores, 3, 0.5)
    yield "NonMaxSuppressionV3", graph("NonMaxSuppressionV3", [boxes, scores, np.array(10, np.int32),
                                                             np.array(0.5, np.float32), np.array(0.4, np.float32)]), \
        nms(boxes, scores, 10, 0.5, 0.4)
    def stitch(indices, data):  # merged[indices[m][i]] = data[m][i], a later (m, i) winning
        rows = max(int(np.max(i)) for i in indices) + 1
        out = np.zeros((rows,) + data[0].shape[np.ndim(indices[0]):], data[0].dtype)
        for ind, d in zip(indices, data):
            for i, k in enumerate(np.reshape(ind, -1)):
                out[k] = d.reshape((-1,) + out.shape[1:])[i]
        return out
    sidx = [np.array(6, np.int32), np.array([4, 1], np.int32), np.array([[5, 2], [0, 3]], np.int32)]
    sdat = [np.array([61, 62], np.float32), np.array([[41, 42], [11, 12]], np.float32),
            np.array([[[51, 52], [21, 22]], [[1, 2], [31, 32]]], np.float32)]
    yield "DynamicStitch", graph("DynamicStitch", sidx + sdat, {"N": 3}), stitch(sidx, sdat)
    didx = [np.array([0, 1], np.int32), np.array([1, 2], np.int32)]
    ddat = [np.array([1.5, 2.5], np.float32), np.array([3.5, 4.5], np.float32)]
    yield "DynamicStitch_duplicate", graph("DynamicStitch", didx + ddat, {"N": 2}), stitch(didx, ddat)
    yield "ParallelDynamicStitch", graph("ParallelDynamicStitch", sidx + sdat, {"N": 3}), stitch(sidx, sdat)
    pdat = np.array([[1, 2], [3, 4], [5, 6], [7, 8]], np.float32)
    parts = np.array([1, 0, 1, 1], np.int32)
    for k in (0, 1):
        text = const("data", pdat) + const("parts", parts) + (
            'node { name: "dp" op: "DynamicPartition" input: "data" input: "parts" '
            'attr { key: "num_partitions" value { i: 2 } } }\n'
            f'node {{ name: "out" op: "Identity" input: "dp{":1" if k else ""}" }}\n')
        yield f"DynamicPartition_{k}", text, pdat[parts == k]
    sx = np.arange(14, dtype=np.float32).reshape(2, 7)
    for k in (0, 1, 2):
        text = const("x", sx) + const("sizes", np.array([2, -1, 1], np.int32)) + const("axis", np.array(1, np.int32)) + (
            'node { name: "sp" op: "SplitV" input: "x" input: "sizes" input: "axis" '
            'attr { key: "num_split" value { i: 3 } } }\n'
            f'node {{ name: "out" op: "Identity" input: "sp{":" + str(k) if k else ""}" }}\n')
        yield f"SplitV_minus1_{k}", text, np.split(sx, [2, 6], axis=1)[k]
    mp = np.arange(12, dtype=np.float32).reshape(3, 4)
    mpad = np.array([[2, 1], [0, 3]], np.int32)
    yield "MirrorPad_symmetric", graph("MirrorPad", [mp, mpad], {"mode": "SYMMETRIC"}), \
        np.pad(mp, mpad, mode="symmetric")
    rows = np.array([True, False], np.bool_)
    yield "Select_vector_condition", graph("Select", [rows, f, g]), np.where(rows[:, None], f, g)
    x3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    i32 = lambda *v: np.array(v, np.int32)  # noqa: E731
    yield "StridedSlice_ellipsis_shrink", graph("StridedSlice", [x3, i32(0, 1), i32(0, 2), i32(1, 1)],
                                                {"ellipsis_mask": 1, "shrink_axis_mask": 2}), x3[..., 1]
    yield "StridedSlice_new_axis", graph("StridedSlice", [x3, i32(0, 0, 1), i32(0, 0, 3), i32(1, 1, 1)],
                                         {"begin_mask": 1, "end_mask": 1, "new_axis_mask": 2}), x3[:, None, 1:3]
    yield "StridedSlice_new_axis_ellipsis_reverse", \
        graph("StridedSlice", [x3, i32(0, 0, 0), i32(0, 0, 0), i32(1, 1, -1)],
              {"new_axis_mask": 1, "ellipsis_mask": 2, "begin_mask": 4, "end_mask": 4}), x3[None, ..., ::-1]
    sel = nms(boxes, scores, 5, 0.5, 0.4)
    nms_in = const("b", boxes) + const("s", scores) + const("k", np.array(5, np.int32)) + \
        const("iou", np.array(0.5, np.float32)) + const("st", np.array(0.4, np.float32)) + \
        const("sigma", np.array(0.0, np.float32))
    pad_attr = 'attr { key: "pad_to_max_output_size" value { b: true } }'
    for version, k, exp in ((4, "", np.pad(sel, (0, 5 - sel.size))), (4, ":1", np.array(sel.size, np.int32)),
                            (5, ":1", np.pad(scores[sel], (0, 5 - sel.size))), (5, ":2", np.array(sel.size, np.int32))):
        extra = ' input: "sigma"' if version == 5 else ""
        text = nms_in + (f'node {{ name: "nms" op: "NonMaxSuppressionV{version}" input: "b" input: "s" input: "k" '
                         f'input: "iou" input: "st"{extra} {pad_attr} }}\n'
                         f'node {{ name: "out" op: "Identity" input: "nms{k}" }}\n')
        yield f"NonMaxSuppressionV{version}_padded{k.replace(':', '_')}", text, exp
    rgb = np.array([[0.2, 0.4, 0.6], [0.9, 0.1, 0.1], [0.3, 0.8, 0.3], [0.5, 0.5, 0.5], [0.0, 0.0, 0.0],
                    [0.7, 0.2, 0.9], [0.1, 0.6, 0.95], [1.0, 0.9, 0.05]], np.float32)
    hsv = np.array([colorsys.rgb_to_hsv(*p) for p in rgb.astype(np.float64)], np.float32)
    yield "RGBToHSV", graph("RGBToHSV", [rgb]), hsv
    yield "HSVToRGB", graph("HSVToRGB", [hsv]), \
        np.array([colorsys.hsv_to_rgb(*p) for p in hsv.astype(np.float64)], np.float32)

    def adjust(fn):  # through HSV with colorsys
        return np.array([colorsys.hsv_to_rgb(*fn(*colorsys.rgb_to_hsv(*p))) for p in rgb.astype(np.float64)],
                        np.float32)
    yield "AdjustSaturation", graph("AdjustSaturation", [rgb, np.array(1.7, np.float32)]), \
        adjust(lambda h, s, v: (h, min(1.0, max(0.0, s * np.float32(1.7))), v))
    yield "AdjustHue", graph("AdjustHue", [rgb, np.array(0.45, np.float32)]), \
        adjust(lambda h, s, v: ((h + np.float32(0.45)) % 1.0, s, v))
    # A TF1 while loop (i = 0; while i < 3: x = 2x + 1; ta[i] = x) with a TensorArray written each
    # iteration and concatenated after the loop.
    def ctl(name, arr, dep):  # a constant inside the loop frame (control input from the pivot)
        return const(name, arr).replace('op: "Const"', f'op: "Const" input: "^{dep}"', 1)

    def enter(name, src, const_=False):
        c = ' attr { key: "is_constant" value { b: true } }' if const_ else ""
        return f'node {{ name: "{name}" op: "Enter" input: "{src}" attr {{ key: "frame_name" value {{ s: "w" }} }}{c} }}\n'
    text = const("x", np.array([1, 2], np.float32)) + const("n", np.array(3, np.int32)) + \
        const("zero", np.array(0, np.int32)) + \
        'node { name: "ta" op: "TensorArrayV3" input: "n" attr { key: "dtype" value { type: DT_FLOAT } } }\n' + \
        enter("w/Enter", "zero") + enter("w/Enter_1", "x") + enter("w/Enter_2", "ta:1") + enter("w/n", "n", True) + \
        enter("w/ta", "ta", True)
    for k in ("", "_1", "_2"):
        text += f'node {{ name: "w/Merge{k}" op: "Merge" input: "w/Enter{k}" input: "w/NextIteration{k}" }}\n'
    text += 'node { name: "w/Less" op: "Less" input: "w/Merge" input: "w/n" }\n'
    text += 'node { name: "w/LoopCond" op: "LoopCond" input: "w/Less" }\n'
    for k in ("", "_1", "_2"):
        text += f'node {{ name: "w/Switch{k}" op: "Switch" input: "w/Merge{k}" input: "w/LoopCond" }}\n'
        text += f'node {{ name: "w/Identity{k}" op: "Identity" input: "w/Switch{k}:1" }}\n'
        text += f'node {{ name: "w/Exit{k}" op: "Exit" input: "w/Switch{k}" }}\n'
    text += ctl("w/two", np.array(2, np.float32), "w/Identity") + ctl("w/one", np.array(1, np.float32), "w/Identity")
    text += ctl("w/one_i", np.array(1, np.int32), "w/Identity") + """
node { name: "w/Mul" op: "Mul" input: "w/Identity_1" input: "w/two" }
node { name: "w/Add" op: "AddV2" input: "w/Mul" input: "w/one" }
node { name: "w/Write" op: "TensorArrayWriteV3" input: "w/ta" input: "w/Identity" input: "w/Add" input: "w/Identity_2" }
node { name: "w/inc" op: "AddV2" input: "w/Identity" input: "w/one_i" }
node { name: "w/NextIteration" op: "NextIteration" input: "w/inc" }
node { name: "w/NextIteration_1" op: "NextIteration" input: "w/Add" }
node { name: "w/NextIteration_2" op: "NextIteration" input: "w/Write" }
node { name: "out" op: "TensorArrayConcatV3" input: "ta" input: "w/Exit_2" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "close" op: "TensorArrayCloseV3" input: "ta" input: "^out" }
"""
    xs, v = [], np.array([1, 2], np.float32)
    for _ in range(3):
        v = v * 2 + 1
        xs.append(v)
    yield "while_TensorArrayConcat", text, np.concatenate(xs)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ge", default="ge")
    ap.add_argument("--modes", default="sink,host")
    a = ap.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, expected in cases():
            path = os.path.join(tmp, name + ".pbtxt")
            with open(path, "w") as f:
                f.write(text)
            reason = None
            modes = a.modes.split(",")
            if "LoopCond" in text:  # a Loop's outputs have run-time shapes: auto instead of sink
                modes = list(dict.fromkeys("auto" if m == "sink" else m for m in modes))
            for mode in modes:
                out = os.path.join(tmp, f"{name}_{mode}.npz")
                r = subprocess.run([a.ge, "run", path, "--mode", mode, "--outputs", out], capture_output=True,
                                   text=True, timeout=120)
                if r.returncode != 0:
                    reason = f"{mode}: {(r.stderr.strip() or r.stdout.strip())[-300:]}"
                    break
                y = np.load(out)["out"]
                exp = np.asarray(expected)
                if y.dtype != exp.dtype or y.shape != exp.shape:
                    reason = f"{mode}: got {y.dtype}{list(y.shape)}, expected {exp.dtype}{list(exp.shape)}"
                    break
                if not np.allclose(y.astype(np.float64), exp.astype(np.float64), rtol=1e-6, atol=1e-6):
                    reason = f"{mode}: got {y.tolist()}, expected {exp.tolist()}"
                    break
            print(f"{'FAIL' if reason else 'PASS'} {name}{': ' + reason if reason else ''}")
            failed += bool(reason)
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
