#!/usr/bin/python3
"""Runs acl_infer on a bundled model with its bundled input and compares the outputs it writes
with PyTorch's outputs (models/<name>_output.npy, written by models/make_models.py).

    check_outputs.py ACL_INFER MODELS_DIR NAME WORK_DIR [GE]

With GE (the `ge` tool), the model is first compiled offline (`ge compile NAME.onnx -o NAME.gem`)
and acl_infer loads the .gem, as a deployed application would.
"""
import os
import subprocess
import sys

import numpy as np


def main():
    acl_infer, models, name, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    x = np.load(os.path.join(models, name + "_input.npy"))
    want = np.load(os.path.join(models, name + "_output.npy"))
    inp = os.path.join(work, name + "_input.bin")
    np.ascontiguousarray(x).astype(x.dtype.newbyteorder("<")).tofile(inp)
    model = os.path.join(models, name + ".onnx")
    prefix = os.path.join(work, name + "_output")
    if len(sys.argv) > 5:
        gem = os.path.join(work, name + ".gem")
        c = subprocess.run([sys.argv[5], "compile", model, "-o", gem], capture_output=True, text=True)
        if c.returncode != 0:
            print(f"FAIL: ge compile exited with {c.returncode}: {c.stdout}{c.stderr}")
            return 1
        model = gem
        prefix = os.path.join(work, name + "_gem_output")
    res = subprocess.run([acl_infer, model, inp, "-o", prefix],
                         capture_output=True, text=True)
    sys.stdout.write(res.stdout)
    sys.stderr.write(res.stderr)
    if res.returncode != 0:
        print(f"FAIL: acl_infer exited with {res.returncode}")
        return 1
    got = np.fromfile(prefix + "0.bin", dtype=want.dtype)
    if got.size != want.size:
        print(f"FAIL: {got.size} output elements, PyTorch has {want.size}")
        return 1
    got = got.reshape(want.shape)
    err = float(np.max(np.abs(got - want)))
    # The printed checksum is the one of the outputs written.
    line = [l for l in res.stdout.splitlines() if l.startswith("output 0 ")]
    if len(line) != 1 or f"sum {float(got.astype(np.float64).sum()):.6f}" not in line[0]:
        print("FAIL: the printed checksum does not match the output written")
        return 1
    if not np.allclose(got, want, rtol=1e-4, atol=1e-5):
        print(f"FAIL: max abs error {err} against PyTorch")
        return 1
    print(f"OK {name}: max abs error {err:.3g} against PyTorch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
