#!/bin/bash
# Issue 10's host criterion: each dynamic-batch suite model host-run at batch 1 (its reference
# input) against the same model shape-specialized and sunk (--input-shape input=1,3,224,224).
# 3 alternated pairs of `ge bench --runs 100` per model and thread count; medians; one table.
# usage: bash bench/host_vs_sunk.sh [BUILD_DIR] [MODELS_DIR] [MODEL,...]
# MODELS_DIR holds ../shared/bench/export_models.py's output (the *_dynbatch models).
set -euo pipefail
B=${1:-build}
M=${2:-/tmp/harness/models}
MODELS=${3:-mobilenet_v2,mobilenet_v3_small,resnet18,squeezenet1_0,shufflenet_v2_x1_0,efficientnet_b0}
median() { grep "^per run" | sed 's/.*median \([0-9.]*\).*/\1/'; }
for m in ${MODELS//,/ }; do
  for t in 1 2; do
    for i in 1 2 3; do
      echo "$m: threads $t, pair $i" >&2
      h=$(taskset -c 0-$((t - 1)) "$B/bin/ge" bench "$M/${m}_dynbatch/model.onnx" --threads $t --runs 100 \
            --input "input=$M/${m}_dynbatch/input_0.npy" 2>&1 | median)
      s=$(taskset -c 0-$((t - 1)) "$B/bin/ge" bench "$M/${m}_dynbatch/model.onnx" --threads $t --runs 100 \
            --input-shape input=1,3,224,224 2>&1 | median)
      echo "$m $t $h $s"
    done
  done
done | /usr/bin/python3 -c "
import sys, statistics, collections
d = collections.defaultdict(lambda: ([], []))
for line in sys.stdin:
    m, t, h, s = line.split()
    d[(m, t)][0].append(float(h)); d[(m, t)][1].append(float(s))
print('| model | threads | sunk ms | host ms | host / sunk |')
print('|---|---:|---:|---:|---:|')
for (m, t), (h, s) in d.items():
    H = statistics.median(h) / 1000; S = statistics.median(s) / 1000
    print(f'| {m} | {t} | {S:.2f} | {H:.2f} | {H / S:.2f} |')
"
