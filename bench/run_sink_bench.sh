#!/bin/bash
# Sink-scheduling benchmark, GE and ONNX Runtime side by side in one run (bench/README.md).
#   bash bench/run_sink_bench.sh [BUILD_DIR] [RUNS]
# Needs onnxruntime-node in /tmp/harness/ort (bash ../shared/bench/setup.sh); without it the
# ORT columns read "-".
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build-sink}
RUNS=${2:-2000}
GE=$BUILD/bin/ge
M=${GE_BENCH_MODELS:-/tmp/ge_bench_models}
ORT_JS=${ORT_JS:-$ROOT/../shared/bench/bench_ort.js}
export NODE_PATH=${NODE_PATH:-/tmp/harness/ort/node_modules}
/usr/bin/python3 "$ROOT/bench/make_sink_models.py" "$M" >/dev/null
OUT=$(mktemp -d)
ge_median() {  # model mode streams -> median us per run
  "$GE" bench "$M/$1/model.onnx" --mode "$2" --streams "$3" --runs "$RUNS" --warmup 200 |
    awk '/^per run/ {print $7}'
}
ort_median() {  # model -> median us per run (1 thread), or -
  if [ -d "$NODE_PATH/onnxruntime-node" ] && [ -f "$ORT_JS" ]; then
    node "$ORT_JS" "$M/$1" --threads 1 --runs "$RUNS" --warmup 200 --json 2>/dev/null |
      /usr/bin/python3 -c 'import json,sys; print(round(json.loads(sys.stdin.readlines()[-1])["median_ms"]*1000, 3))'
  else
    echo -
  fi
}
for n in 1 1000; do
  echo "add_chain_$n sink $(ge_median add_chain_$n sink 1)" >> "$OUT/r"
  echo "add_chain_$n host $(ge_median add_chain_$n host 1)" >> "$OUT/r"
  echo "add_chain_$n ort $(ort_median add_chain_$n)" >> "$OUT/r"
done
# Streams: PAIRS alternating 1-stream / 2-stream processes per model; the table takes the median
# of the per-process medians (a process's speed on these VMs varies by up to 1.4x).
PAIRS=${PAIRS:-5}
for m in branches_2x200 branches_4x100; do
  for ((i = 0; i < PAIRS; ++i)); do
    for s in 1 2; do echo "$m streams$s $(ge_median $m sink $s)" >> "$OUT/s"; done
  done
done
/usr/bin/python3 - "$OUT/r" "$OUT/s" <<'PY'
import statistics
import sys
r = {}
for line in open(sys.argv[1]):
    model, what, v = line.split()
    r[(model, what)] = None if v == '-' else float(v)
runs = {}
for line in open(sys.argv[2]):
    model, what, v = line.split()
    runs.setdefault((model, what), []).append(float(v))
for k, v in runs.items():
    r[k] = statistics.median(v)
print("| engine | add_chain_1 median (us) | add_chain_1000 median (us) | per op (us) | fixed per run (us) |")
print("|---|---:|---:|---:|---:|")
per = {}
for e, name in (("sink", "GE sink"), ("host", "GE host"), ("ort", "ORT 1 thread")):
    a, b = r[("add_chain_1", e)], r[("add_chain_1000", e)]
    if a is None or b is None:
        print(f"| {name} | - | - | - | - |"); continue
    p = (b - a) / 999
    per[e] = (p, a - p)
    print(f"| {name} | {a:.3f} | {b:.3f} | {p:.4f} | {a - p:.3f} |")
if "ort" in per:
    for e in ("sink", "host"):
        if e in per:
            print(f"\nORT time / GE {e} time: per op {per['ort'][0] / per[e][0]:.2f}x, "
                  f"fixed {per['ort'][1] / max(per[e][1], 1e-3):.2f}x (above 1: GE faster)")
print(f"\n| model | 1 stream median (us) | 2 streams median (us) | speedup |  (median of {len(runs[('branches_2x200', 'streams1')])} processes each)")
print("|---|---:|---:|---:|")
for m in ("branches_2x200", "branches_4x100"):
    a, b = r[(m, "streams1")], r[(m, "streams2")]
    print(f"| {m} | {a:.1f} | {b:.1f} | {a / b:.2f}x |")
PY
rm -rf "$OUT"
