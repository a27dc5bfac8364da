#!/usr/bin/env bash
# `make run`: runs the bundled models through the `ge` tool in each scheduling mode and checks
# the outputs against PyTorch's reference outputs (models/*_output.npy, from make_models.py).
set -euo pipefail
BUILD=${1:-build}
GE="$BUILD/bin/ge"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
status=0
for model in small_cnn mlp; do
  for mode in sink host; do
    echo "== ge run models/$model.onnx --mode $mode"
    "$GE" run "models/$model.onnx" --mode "$mode" --input "input=models/${model}_input.npy" \
      --output "$OUT/${model}_$mode.npy"
    /usr/bin/python3 scripts/compare_npy.py "$OUT/${model}_$mode.npy" "models/${model}_output.npy" || status=1
  done
done
exit $status
