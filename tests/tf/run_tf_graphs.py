#!/usr/bin/python3
"""Runs the TensorFlow frozen-graph test set through `ge run` and compares with the references.

Each graph directory under the data root holds frozen_model.pb, `<name>.placeholder.csv/.shape`
for each Placeholder `<name>` and `<name>.prediction.csv/.shape` for each checked output
(`<name>.<k>.prediction.*` for output k); an optional `dtypes` file gives `<tensor> <numpy dtype>`
lines (format: MANIFEST.md of the test set). The placeholders are fed by name (csv -> .npy), the
model runs in each mode, and every reference is compared with the output named `<name>` (or
`<name>:<k>`): rel 1e-5 + abs max(1e-6, 1e-6 * the tensor's largest magnitude) for float32,
rel/abs 1e-3 for float16, rel 1e-10 + abs 1e-8 for float64
(rel 1e-8 + abs 1e-7 where the fed inputs were printed rounded to 8 decimals: see tolerance()).
Graphs with a TF1 while loop run in auto mode instead of sink: the Loop GE makes of it has outputs
whose shapes are known only once it ran, so no sink segment can hold it (the rest of the graph
still runs in sink segments).
Prints PASS/FAIL per graph and a total; exits 1 when fewer than --min-pass graphs pass.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

DEFAULT_ROOT = "/work/shared/testdata/tf"


def read_shape(path):
    with open(path) as f:
        dims = [int(x) for x in f.read().split()]
    return dims


def read_tensor(csv, shape_file, dtype):
    dims = read_shape(shape_file)
    with open(csv) as f:
        text = f.read().split()
    vals = np.array([float(x) for x in text], dtype=np.float64)
    if dims == [0]:
        dims = [] if vals.size == 1 else [0]
    arr = vals.reshape(dims)
    if dtype == "bool":
        return arr != 0
    return arr.astype(dtype)


def read_dtypes(d):
    out = {}
    p = os.path.join(d, "dtypes")
    if os.path.exists(p):
        with open(p) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    name = parts[0].replace("import____", "").replace("____", "/")
                    out[name] = parts[1]
    return out


def find_graphs(root):
    graphs = []
    for dirpath, _, files in os.walk(root):
        if "frozen_model.pb" in files:
            graphs.append(dirpath)
    return sorted(graphs)


def collect(d, suffix):
    """(name, csv path, shape path) for files ending in `suffix`.csv below d (names may hold '/')."""
    items = []
    for dirpath, _, files in os.walk(d):
        for f in files:
            if f.endswith(suffix + ".csv"):
                csv = os.path.join(dirpath, f)
                name = os.path.relpath(csv, d)[: -len(suffix + ".csv")]
                items.append((name, csv, csv[: -len(".csv")] + ".shape"))
    return sorted(items)


def tolerance(dtype, rounded_inputs):
    """(rel, abs) for an output of this dtype. float64: rel 1e-10 + abs 1e-8 (references printed
    with 8 decimals); but where the fed inputs were printed with 8 decimals (rounding error up to
    5e-9 each, while TF computed from the full-precision values), the error the rounding carries
    through the graph can reach 1e-9 relative (g_07: 1.5e-9 after a cancellation), so rel 1e-8 +
    abs 1e-7 there."""
    if dtype == np.float64:
        return (1e-8, 1e-7) if rounded_inputs else (1e-10, 1e-8)
    return 1e-5, 1e-6


def is_rounded(csv):
    """True when the csv's values are printed with at most 8 decimals."""
    with open(csv) as f:
        for tok in f.read().split():
            if "e" in tok.lower() or len(tok.partition(".")[2]) > 8:
                return False
    return True


def graph_input_dtypes(ge, model, timeout):
    """{input name: numpy dtype} the graph declares, from `ge info`."""
    r = subprocess.run([ge, "info", model], capture_output=True, text=True, timeout=timeout)
    out, in_inputs = {}, False
    for line in r.stdout.splitlines():
        if line.strip() == "inputs:":
            in_inputs = True
        elif in_inputs and line.startswith("  ") and ": " in line:
            name, _, t = line.strip().rpartition(": ")
            out[name] = t.split("[")[0]
        elif in_inputs:
            break
    return out


def check_graph(ge, d, mode, tmp, timeout, text=False, inbw=False):
    dtypes = read_dtypes(d)
    model = os.path.join(d, "frozen_model.pb")
    if text and os.path.exists(os.path.join(d, "frozen_graph.pbtxt")):
        model = os.path.join(d, "frozen_graph.pbtxt")
    args = [ge, "run", model, "--mode", mode]
    placeholders = collect(d, ".placeholder")
    # The graph's own placeholder dtypes win over the dtypes file where the two disagree
    # (primitive_gru_dynamic: the file says float32, the graph is float64 in every node); the
    # outputs are then compared at their own dtype's tolerance, their dtype not checked.
    info = graph_input_dtypes(ge, model, timeout)
    retyped = False
    rounded = any(is_rounded(csv) for _, csv, _ in placeholders)
    for i, (name, csv, shape) in enumerate(placeholders):
        dt = dtypes.get(name, dtypes.get(name + ".0", info.get(name, "float32")))
        if info.get(name, dt) != dt and dt in ("float32", "float64") and info[name] in ("float32", "float64"):
            dt, retyped = info[name], True
        arr = read_tensor(csv, shape, dt)
        npy = os.path.join(tmp, f"in{i}.npy")
        np.save(npy, arr)
        args += ["--input", f"{name}={npy}"]
        if arr.ndim > 0:  # placeholders with unknown dims: the fed shape makes them static (sink mode)
            args += ["--input-shape", f"{name}={','.join(str(d) for d in arr.shape)}"]
    refs = collect(d, ".prediction")
    if inbw:  # every intermediate tensor too: `<node, / as ____>.<k>.prediction_inbw.csv`
        # (names may carry the `import/` prefix of an imported graph; the reserve-space outputs
        # 3+ of FusedBatchNorm* are TF implementation details, not checked)
        for n, c, sh in collect(d, ".prediction_inbw"):
            n = n.replace("____", "/")
            n = n[len("import/"):] if n.startswith("import/") else n
            if "FusedBatchNorm" in n and n.rpartition(".")[2] in ("3", "4", "5"):
                continue
            refs.append((n, c, sh))
    if not refs:
        return f"{mode}: no reference outputs"
    out = os.path.join(tmp, f"out_{mode}.npz")

    def key_of(name):  # `<node>.<k>` is output k of <node>
        base, _, k = name.rpartition(".")
        if not (base and k.isdigit()):
            return name
        return base if k == "0" else f"{base}:{k}"

    # The model's own outputs first (the unconsumed nodes); where a reference is an intermediate
    # tensor, again with --output-node for every reference.
    got = None
    for picked in (False, True):
        while True:
            extra = [x for name, _, _ in refs for x in ("--output-node", key_of(name))] if picked else []
            try:
                r = subprocess.run(args + ["--outputs", out] + extra, capture_output=True, text=True,
                                   timeout=timeout)
            except subprocess.TimeoutExpired:
                return f"{mode}: timed out"
            # An intermediate tensor inside a while loop has a value per iteration and is no graph
            # output: its reference is skipped, the others fetched again.
            in_loop = re.search(r"output '([^']+)': node '[^']+' is inside while-loop frame", r.stderr + r.stdout)
            kept = [ref for ref in refs if not in_loop or key_of(ref[0]) != in_loop.group(1)]
            if not (picked and r.returncode != 0 and in_loop and len(kept) < len(refs)):
                break
            refs = kept
        if r.returncode != 0:
            msg = (r.stderr.strip() or r.stdout.strip()).splitlines()
            last = msg[-1] if msg else str(r.returncode)
            return f"{mode}: ge run failed: {last[:400]}{'...' if len(last) > 400 else ''}"
        got = np.load(out)
        if all(name in got.files or key_of(name) in got.files for name, _, _ in refs):
            break
    for name, csv, shape in refs:
        key = name if name in got.files else key_of(name)
        if key not in got.files:
            return f"{mode}: output '{name}' not produced (outputs: {', '.join(got.files[:8])})"
        y = got[key]
        ref_dt = dtypes.get(key.replace(":", ".") if ":" in key else key + ".0", str(y.dtype))
        exp = read_tensor(csv, shape, "float64" if ref_dt != "bool" else "bool")
        if y.dtype == np.float16 or ref_dt == "float16":
            exp = exp.astype(np.float16).astype(np.float64)
        if tuple(y.shape) != tuple(exp.shape):
            return f"{mode}: '{name}' shape {list(y.shape)}, expected {list(exp.shape)}"
        if retyped:
            ref_dt = str(y.dtype)
        if ref_dt in ("float32", "float64", "float16", "int32", "int64", "bool") and str(y.dtype) != ref_dt:
            return f"{mode}: '{name}' dtype {y.dtype}, expected {ref_dt}"
        rtol, atol = tolerance(y.dtype, rounded)
        if ref_dt == "float16":
            rtol, atol = 1e-3, 1e-3
        yd = y.astype(np.float64)
        ed = exp.astype(np.float64)
        if y.dtype == np.float32 and ed.size:
            # float32 sums carry rounding relative to their operands, not to the result: an
            # element that cancels to a small value next to large ones (conv_4: -1.8 among values
            # up to 1e4) is held to 1e-6 of the tensor's largest magnitude.
            atol = max(atol, 1e-6 * float(np.abs(ed).max()))
        bad = np.abs(yd - ed) > atol + rtol * np.abs(ed)
        if np.any(bad):
            i = int(np.argmax(bad.reshape(-1)))
            return (f"{mode}: '{name}' differs at {int(bad.sum())} of {bad.size} elements "
                    f"(first flat index {i}: got {yd.reshape(-1)[i]!r}, expected {ed.reshape(-1)[i]!r})")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ge", default="ge", help="the ge executable")
    ap.add_argument("--root", default=os.environ.get("GE_TF_TESTDATA", DEFAULT_ROOT), help="data root")
    ap.add_argument("--modes", default="sink,host")
    ap.add_argument("--filter", default="", help="only graphs whose path contains this")
    ap.add_argument("--min-pass", type=int, default=0, help="fail when fewer graphs pass")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--pbtxt", action="store_true", help="run frozen_graph.pbtxt (text) where a graph has one")
    ap.add_argument("--inbw", action="store_true",
                    help="also compare every intermediate tensor with its *.prediction_inbw reference")
    a = ap.parse_args()
    graphs = [g for g in find_graphs(a.root) if a.filter in g]
    if not graphs:
        print(f"no graphs under {a.root}")
        return 1
    passed = []
    for g in graphs:
        rel = os.path.relpath(g, a.root)
        reason = None
        modes = a.modes.split(",")
        with open(os.path.join(g, "frozen_model.pb"), "rb") as f:
            loop = b"LoopCond" in f.read()
        if loop:  # a while loop is a Loop, whose outputs' shapes are known only once it ran: no sink
            modes = [("auto" if m == "sink" else m) for m in modes]
        with tempfile.TemporaryDirectory() as tmp:
            for mode in dict.fromkeys(modes):
                reason = check_graph(a.ge, g, mode, tmp, a.timeout, a.pbtxt, a.inbw)
                if reason:
                    break
        if reason:
            print(f"FAIL {rel}: {reason}")
        else:
            print(f"PASS {rel}{' (while loop: auto instead of sink)' if loop and 'sink' in a.modes else ''}")
            passed.append(rel)
        sys.stdout.flush()
    print(f"{len(passed)} of {len(graphs)} graphs pass (floor {a.min_pass})")
    return 0 if len(passed) >= a.min_pass else 1


if __name__ == "__main__":
    sys.exit(main())
