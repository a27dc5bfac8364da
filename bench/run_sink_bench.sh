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
ge_median() {  # model mode streams [extra flags] -> median us per run (streams 0: the default)
  local m=$1 mode=$2 s=$3
  shift 3
  "$GE" bench "$M/$m/model.onnx" --mode "$mode" --streams "$s" --runs "$RUNS" --warmup 200 "$@" |
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
  echo "add_chain_$n sink_zc $(ge_median add_chain_$n sink 1 --zero-copy)" >> "$OUT/r"
  echo "add_chain_$n host $(ge_median add_chain_$n host 1)" >> "$OUT/r"
  echo "add_chain_$n ort $(ort_median add_chain_$n)" >> "$OUT/r"
done
# Streams: PAIRS rounds of alternating processes per model (1 stream, 2 streams, the default
# bound; Model::Run and --zero-copy); the tables take the median of the per-process medians (a
# process's speed on these VMs varies by up to 1.4x).
PAIRS=${PAIRS:-5}
for m in branches_2x200 branches_4x100 tiny_2x5; do
  for ((i = 0; i < PAIRS; ++i)); do
    for s in 1 2 0; do
      echo "$m streams$s $(ge_median $m sink $s)" >> "$OUT/s"
      echo "$m zc_streams$s $(ge_median $m sink $s --zero-copy)" >> "$OUT/s"
    done
  done
done
# The machine's own ceiling for branches_2x200 (bench/parallel_ceiling.cc, no GE), and one
# thread pinned to each CPU: on the 2-vCPU VMs the two CPUs need not be equally fast.
CEIL=$BUILD/bench/parallel_ceiling
if [ -x "$CEIL" ]; then
  for ((i = 0; i < PAIRS; ++i)); do
    "$CEIL" 1 2000 | awk '{print "ceiling one", $3; print "ceiling two", $7}' >> "$OUT/s"
  done
  if command -v taskset >/dev/null; then
    for c in 0 1; do
      echo "pinned$c hand $(taskset -c $c "$CEIL" 1 2000 one | awk '{print $3}')" >> "$OUT/s"
      echo "pinned$c ge1 $(taskset -c $c "$GE" bench "$M/branches_2x200/model.onnx" --mode sink --streams 1 \
        --runs "$RUNS" --warmup 200 | awk '/^per run/ {print $7}')" >> "$OUT/s"
    done
  fi
fi
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
for e, name in (("sink", "GE sink"), ("sink_zc", "GE sink --zero-copy"), ("host", "GE host"), ("ort", "ORT 1 thread")):
    a, b = r[("add_chain_1", e)], r[("add_chain_1000", e)]
    if a is None or b is None:
        print(f"| {name} | - | - | - | - |"); continue
    p = (b - a) / 999
    per[e] = (p, a - p)
    print(f"| {name} | {a:.3f} | {b:.3f} | {p:.4f} | {a - p:.3f} |")
if "ort" in per:
    for e in ("sink", "sink_zc", "host"):
        if e in per:
            print(f"\nORT time / GE {e} time: per op {per['ort'][0] / per[e][0]:.2f}x, "
                  f"fixed {per['ort'][1] / max(per[e][1], 1e-3):.2f}x (above 1: GE faster)")
n = len(runs[("branches_2x200", "streams1")])
for zc, title in (("", "Model::Run (inputs copied in, outputs out)"), ("zc_", "--zero-copy (caller's device buffers)")):
    print(f"\n{title}, median of {n} processes each:\n")
    print("| model | 1 stream (us) | 2 streams (us) | 2 vs 1 | default bound (us) |")
    print("|---|---:|---:|---:|---:|")
    for m in ("branches_2x200", "branches_4x100", "tiny_2x5"):
        a, b, d = r[(m, zc + "streams1")], r[(m, zc + "streams2")], r[(m, zc + "streams0")]
        print(f"| {m} | {a:.2f} | {b:.2f} | {a / b:.2f}x | {d:.2f} |")
if ("ceiling", "one") in r:
    a, b = r[("ceiling", "one")], r[("ceiling", "two")]
    print(f"\nCeiling, the branches_2x200 work by hand (bench/parallel_ceiling.cc): one thread {a:.2f} us, "
          f"two threads {b:.2f} us -> {a / b:.2f}x (median of {n} processes)")
    if ("pinned0", "hand") in r:
        print("\n| one thread pinned to | hand-written (us) | GE 1 stream (us) |")
        print("|---|---:|---:|")
        for c in (0, 1):
            print(f"| CPU{c} | {r[(f'pinned{c}', 'hand')]:.2f} | {r[(f'pinned{c}', 'ge1')]:.2f} |")
PY
rm -rf "$OUT"
