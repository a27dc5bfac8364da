#!/usr/bin/python3
"""Single-op TensorFlow graphs written here in GraphDef text format (.pbtxt), run by `ge run`
(sink and host) and checked against numpy: the TF ops the frozen test graphs do not cover.
Each case: constants (Const nodes), one op node named `out`, and the expected numpy value."""
import argparse
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
            for mode in a.modes.split(","):
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
