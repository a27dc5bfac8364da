#!/usr/bin/python3
"""Memory-plan quality over the ONNX backend test models (issue 4's "within 5% of the lower
bound on >= 90% of the models with >= 10 intermediates").

  memory_sweep.py GE_BINARY [DATA_DIR] [--min-tensors 10]

Runs `ge run MODEL --report` (random inputs) on every model.onnx under DATA_DIR and prints one
line per model with a sink segment, then the share of models whose arena is within 5% of the
lower bound.
"""
import glob
import os
import re
import subprocess
import sys

ge = sys.argv[1]
data = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else "/usr/share/libonnx-testdata/data"
min_tensors = int(sys.argv[sys.argv.index("--min-tensors") + 1]) if "--min-tensors" in sys.argv else 10
pat = re.compile(r"memory: naive .*?, lower bound (\S+) (\S+), arena (\S+) (\S+) .*?; (\d+) tensors")
unit = {"B": 1, "KiB": 1024, "MiB": 1 << 20}
rows = []
for m in sorted(glob.glob(os.path.join(data, "*", "*", "model.onnx"))):
    try:
        out = subprocess.run([ge, "run", m, "--report"], capture_output=True, text=True, timeout=60).stdout
    except subprocess.TimeoutExpired:
        continue
    g = pat.search(out)
    if not g:
        continue
    lb = float(g.group(1)) * unit[g.group(2)]
    arena = float(g.group(3)) * unit[g.group(4)]
    n = int(g.group(5))
    if n < min_tensors:
        continue
    over = (arena - lb) / lb * 100 if lb else 0.0
    rows.append((os.path.relpath(os.path.dirname(m), data), n, lb, arena, over))
    print(f"{rows[-1][0]:60s} tensors {n:4d}  lower bound {lb:10.0f}  arena {arena:10.0f}  +{over:5.1f}%")
ok = sum(1 for r in rows if r[4] <= 5.0)
print(f"\n{ok}/{len(rows)} models ({100.0 * ok / max(len(rows), 1):.0f}%) with >= {min_tensors} planned tensors "
      f"have an arena within 5% of the lower bound")
