#!/usr/bin/python3
"""compare_npy.py ACTUAL.npy REFERENCE.npy [--rtol R] [--atol A]: prints the max abs
difference and whether ACTUAL matches REFERENCE (numpy.allclose); exit 1 on mismatch."""
import argparse
import sys

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("actual")
p.add_argument("reference")
p.add_argument("--rtol", type=float, default=1e-4)
p.add_argument("--atol", type=float, default=1e-5)
a = p.parse_args()
x, y = np.load(a.actual), np.load(a.reference)
if x.shape != y.shape or x.dtype != y.dtype:
    print(f"MISMATCH: shape/dtype {x.shape} {x.dtype} vs reference {y.shape} {y.dtype}")
    sys.exit(1)
diff = float(np.max(np.abs(x.astype(np.float64) - y.astype(np.float64)))) if x.size else 0.0
ok = np.allclose(x, y, rtol=a.rtol, atol=a.atol)
print(f"{'MATCH' if ok else 'MISMATCH'} vs PyTorch reference {a.reference}: max abs diff {diff:.3g}")
sys.exit(0 if ok else 1)
