#!/usr/bin/python3
"""Writes the fuzzers' seed corpora into OUT/<harness>/ (full) and OUT-small/<harness>/ (a
sample for the short CTest smoke), generated at build/run time, not kept in the repository:

  onnx_model  the ONNX backend test data's models (libonnx-testdata; the same folder the backend
              runner reads), those up to 64 KiB
  npy         NumPy arrays of every dtype the reader takes, several ranks, format 1.0 and 2.0
  aclnn       a few fixed pseudo-random byte strings (the harness reads choices from bytes)

usage: make_seeds.py OUT [--data /usr/share/libonnx-testdata/data]
"""
import argparse
import io
import os
import random
import shutil

import numpy as np


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--data", default="/usr/share/libonnx-testdata/data")
    args = ap.parse_args()
    out, small = args.out, args.out.rstrip("/") + "-small"
    for d in (out, small):
        shutil.rmtree(d, ignore_errors=True)

    models = []
    for suite in ("node", "simple", "pytorch-operator"):
        root = os.path.join(args.data, suite)
        if not os.path.isdir(root):
            continue
        for case in sorted(os.listdir(root)):
            p = os.path.join(root, case, "model.onnx")
            if os.path.isfile(p) and os.path.getsize(p) <= 64 * 1024:
                models.append((f"{suite}_{case}", p))
    step = max(1, len(models) // 60)
    for i, (name, p) in enumerate(models):
        data = open(p, "rb").read()
        write(os.path.join(out, "onnx_model", name + ".onnx"), data)
        if i % step == 0:
            write(os.path.join(small, "onnx_model", name + ".onnx"), data)

    rng = np.random.default_rng(0)
    dtypes = ["<f4", "<f8", "<f2", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "|b1", "<c8", "<c16"]
    shapes = [(), (0,), (3,), (2, 3), (1, 2, 3, 1), (4, 0, 2)]
    for dt in dtypes:
        for shape in shapes:
            a = (rng.standard_normal(shape) * 4).astype(dt)
            for version in ((1, 0), (2, 0)):
                buf = io.BytesIO()
                np.lib.format.write_array(buf, a, version=version)
                name = f"{dt.strip('<|')}_{'x'.join(map(str, shape)) or 'scalar'}_v{version[0]}.npy"
                write(os.path.join(out, "npy", name), buf.getvalue())
                if shape in ((2, 3), ()) and version == (1, 0):
                    write(os.path.join(small, "npy", name), buf.getvalue())
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.asfortranarray(np.ones((2, 3), "<f4")))
    write(os.path.join(out, "npy", "fortran.npy"), buf.getvalue())

    r = random.Random(0)
    for i in range(16):
        data = bytes(r.randrange(256) for _ in range(r.choice((16, 64, 256))))
        write(os.path.join(out, "aclnn", f"seed{i}"), data)
        if i < 4:
            write(os.path.join(small, "aclnn", f"seed{i}"), data)
    print(f"make_seeds: {len(models)} models, npy and aclnn seeds in {out} (sample in {small})")


if __name__ == "__main__":
    main()
