#!/usr/bin/env python3
"""`ge run --inputs FILE.npz / --outputs FILE.npz` and string tensors, against numpy.

usage: check_npz.py GE_BINARY MODELS_DIR WORK_DIR
Needs make_test_models.py's strings.onnx in WORK_DIR. Prints "ok" or the first failure (exit 1).
"""
import glob
import os
import subprocess
import sys

import numpy as np

ge, models, work = sys.argv[1:4]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(*args, ok=True):
    p = subprocess.run([ge, "run", *args], capture_output=True, text=True)
    out = p.stdout + p.stderr
    if ok and p.returncode != 0:
        fail(f"ge run {' '.join(args)} failed:\n{out}")
    if not ok and p.returncode == 0:
        fail(f"ge run {' '.join(args)} should have failed:\n{out}")
    if "Segmentation fault" in out or "terminate called" in out or p.returncode < 0:
        fail(f"ge run {' '.join(args)} crashed:\n{out}")
    return out


def path(name):
    return os.path.join(work, name)


# 1. A float model: np.savez (stored) and np.savez_compressed (deflated) inputs; outputs by name.
x = np.load(os.path.join(models, "mlp_input.npy"))
want = np.load(os.path.join(models, "mlp_output.npy"))
np.savez(path("in.npz"), input=x)
np.savez_compressed(path("in_z.npz"), input=x)
for f in ("in.npz", "in_z.npz"):
    run(os.path.join(models, "mlp.onnx"), "--inputs", path(f), "--outputs", path("out.npz"), "--output", path("out.npy"))
    got = np.load(path("out.npz"))
    if len(got.files) != 1:
        fail(f"--outputs wrote {got.files}")
    y = got[got.files[0]]
    if not np.array_equal(y, np.load(path("out.npy"))):
        fail("--outputs and --output differ")
    if not np.allclose(y, want, rtol=1e-4, atol=1e-5):
        fail(f"{f}: output differs from the reference")

p = subprocess.run([ge, "bench", os.path.join(models, "mlp.onnx"), "--runs", "2", "--inputs", path("in_z.npz")],
                   capture_output=True, text=True)
if p.returncode != 0 or "per run (us)" not in p.stdout:
    fail("ge bench --inputs: " + p.stdout + p.stderr)

# 2. Strings: '<U' in an .npz and '|S' in an .npy; written back as '<U'.
strings = os.path.join(work, "strings.onnx")
s = np.array(["1.5", "-2", "0.25"])
np.savez(path("s.npz"), s=s)
out = run(strings, "--inputs", path("s.npz"), "--outputs", path("s_out.npz"))
if 'values=["1.5", "-2", "0.25"]' not in out:
    fail("string outputs are printed with their values: " + out)
o = np.load(path("s_out.npz"))
if o["out_s"].dtype.kind != "U" or list(o["out_s"]) != list(s):
    fail(f"string passthrough: {o['out_s']!r}")
if not np.array_equal(o["f"], np.array([1.5, -2, 0.25], np.float32)):
    fail(f"Cast string->float: {o['f']!r}")
if [float(v) for v in o["back"]] != [1.5, -2, 0.25]:
    fail(f"Cast float->string: {o['back']!r}")
np.save(path("s_bytes.npy"), np.array([b"7", b"8.5", b"-1"]))
run(strings, "--input", "s=" + path("s_bytes.npy"), "--output", path("o0.npy"), "--output", path("o1.npy"),
    "--output", path("o2.npy"))
if list(np.load(path("o0.npy"))) != ["7", "8.5", "-1"]:
    fail(f"|S input: {np.load(path('o0.npy'))!r}")
u = np.array(["\u00c4\u00df", "\u65e5\u672c", "x"])  # non-ASCII round trip (UTF-32 <-> UTF-8)
np.save(path("u.npy"), u)
out = run(strings, "--input", "s=" + path("u.npy"), "--output", path("u0.npy"), "--output", path("u1.npy"),
          "--output", path("u2.npy"))
if list(np.load(path("u0.npy"))) != ["\u00c4\u00df", "\u65e5\u672c", "X"]:
    fail(f"unicode round trip: {np.load(path('u0.npy'))!r}")

# 3. The ONNX backend's string Cast cases, through the command line.
data = "/usr/share/libonnx-testdata/data/node"
if os.path.isdir(data):
    import onnx
    from onnx import numpy_helper

    for case in ("test_cast_STRING_to_FLOAT", "test_cast_FLOAT_to_STRING"):
        d = os.path.join(data, case)
        m = onnx.load(os.path.join(d, "model.onnx"))
        ins = [numpy_helper.to_array(onnx.load_tensor(p)) for p in sorted(glob.glob(d + "/test_data_set_0/input_*.pb"))]
        outs = [numpy_helper.to_array(onnx.load_tensor(p)) for p in sorted(glob.glob(d + "/test_data_set_0/output_*.pb"))]
        feed = {}
        for vi, a in zip(m.graph.input, ins):
            if a.dtype == object:
                a = np.array([v.decode() if isinstance(v, bytes) else v for v in a.flat]).reshape(a.shape)
            feed[vi.name] = a
        np.savez(path("case_in.npz"), **feed)
        run(os.path.join(d, "model.onnx"), "--inputs", path("case_in.npz"), "--outputs", path("case_out.npz"))
        got = np.load(path("case_out.npz"))
        for vi, w in zip(m.graph.output, outs):
            g = got[vi.name]
            if w.dtype == object:
                wl = [v.decode() if isinstance(v, bytes) else v for v in w.flat]
                gl = list(g.flat)
                # Float to string formatting may differ in digits: compare as numbers.
                if [float(a) for a in gl] != [float(b) for b in wl] and gl != wl:
                    fail(f"{case}: {gl[:5]} != {wl[:5]}")
            elif not np.allclose(g, w, equal_nan=True):
                fail(f"{case}: output {vi.name} differs")

# 4. Errors: clear messages, never a crash.
mlp = os.path.join(models, "mlp.onnx")
out = run(mlp, "--inputs", path("missing.npz"), ok=False)
if "missing.npz: cannot open file" not in out:
    fail("missing file: " + out)
raw = open(path("in_z.npz"), "rb").read()
open(path("trunc.npz"), "wb").write(raw[: len(raw) // 2])
out = run(mlp, "--inputs", path("trunc.npz"), ok=False)
if "not a .npz file" not in out and "corrupt" not in out:
    fail("truncated: " + out)
bad = bytearray(raw)
bad[len(bad) // 3] ^= 0xFF  # inside the deflated data: corrupt data or a CRC mismatch
open(path("flip.npz"), "wb").write(bytes(bad))
out = run(mlp, "--inputs", path("flip.npz"), ok=False)
if "error:" not in out:
    fail("bit flip: " + out)
open(path("text.npz"), "w").write("not a zip file at all\n")
out = run(mlp, "--inputs", path("text.npz"), ok=False)
if "not a .npz file" not in out:
    fail("not a zip: " + out)
np.savez(path("extra.npz"), input=x, nope=x)
out = run(mlp, "--inputs", path("extra.npz"), ok=False)
if "entry 'nope' is not an input of the model" not in out:
    fail("extra entry: " + out)
np.savez(path("other.npz"), other=x)
out = run(mlp, "--inputs", path("other.npz"), ok=False)
if "entry 'other' is not an input" not in out:
    fail("wrong entry: " + out)
np.savez(path("empty.npz"))
out = run(mlp, "--inputs", path("empty.npz"), ok=False)
if "has no entry for input 'input'" not in out:
    fail("missing entry: " + out)
np.savez(path("obj.npz"), s=np.array(["a", None], dtype=object))
out = run(strings, "--inputs", path("obj.npz"), ok=False)
if "object arrays" not in out:
    fail("object array: " + out)
np.savez(path("long.npz"), s=np.array(["x" * 100, "1", "2"]))
out = run(strings, "--inputs", path("long.npz"), ok=False)
if "holds at most 63" not in out:
    fail("long string: " + out)
out = run(mlp, "--outputs", "/nonexistent/dir/o.npz", ok=False)
if "--outputs" not in out or "cannot write" not in out:
    fail("unwritable --outputs: " + out)
print("ok")
