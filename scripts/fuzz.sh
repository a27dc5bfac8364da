#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/, clang, -DGE_FUZZ=ON: ASan + UBSan + coverage) and runs
# each for N seconds from the generated seeds (fuzz/make_seeds.py) plus the crash inputs kept in
# fuzz/regressions/<name>/ (replayed first). New crash inputs land in <build>/fuzz-artifacts/;
# the script then fails, naming them (copy them to fuzz/regressions/<name>/ with the fix).
#
#   scripts/fuzz.sh [--seconds N] [--runs R] [--build DIR] [--only NAME] [--run-only] [--jobs J]
#   make fuzz FUZZ_SECONDS=N [FUZZ_RUNS=R]
# --runs R: stop each harness after R executions (or N seconds, whichever comes first; with
# --runs alone N is unbounded): the issue's 1,000,000 executions per harness is --runs 1000000.
# --run-only: do not configure/build (CTest's smoke uses this; it also takes the small seeds).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=60
RUNS=""
SECONDS_EACH_SET=0
BUILD=build-san
ONLY=""
RUN_ONLY=0
JOBS=${JOBS:-2}
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_EACH=$2; SECONDS_EACH_SET=1; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --run-only) RUN_ONLY=1; shift ;;
    --jobs) JOBS=$2; shift 2 ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
HARNESSES=(onnx_model npy aclnn gem)
[ -n "$ONLY" ] && HARNESSES=("$ONLY")

if [ "$RUN_ONLY" = 0 ]; then
  bash scripts/configure-san.sh "$BUILD"
  ninja -C "$BUILD" -j"$JOBS" ge_cli $(printf '%s_fuzzer ' "${HARNESSES[@]}")
fi

SEEDS="$BUILD/fuzz-seeds"
if [ ! -f "$SEEDS/.done" ]; then
  /usr/bin/python3 fuzz/make_seeds.py "$SEEDS" && touch "$SEEDS/.done"
fi
# .gem seeds: the bundled models compiled by this build's `ge compile`, in sink and host mode.
if [ ! -f "$SEEDS/.gem_done" ] && [ -x "$BUILD/bin/ge" ]; then
  mkdir -p "$SEEDS/gem" "$SEEDS-small/gem"
  for onnx in models/*.onnx; do
    m=$(basename "$onnx" .onnx)
    for mode in sink host; do
      GE_LOG_LEVEL=off "$BUILD/bin/ge" compile "$onnx" -o "$SEEDS/gem/${m}_$mode.gem" --mode "$mode" >/dev/null 2>&1 || true
    done
  done
  cp "$SEEDS"/gem/small_cnn_*.gem "$SEEDS"/gem/mlp_host.gem "$SEEDS-small/gem/" 2>/dev/null || true
  touch "$SEEDS/.gem_done"
fi
SEED_ARG=""
if [ "$RUN_ONLY" = 1 ]; then  # CTest's smoke: the seed sample, a fixed random seed (repeatable)
  SEEDS="$SEEDS-small"
  SEED_ARG="-seed=1"
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
export GE_LOG_LEVEL=off
status=0
for name in "${HARNESSES[@]}"; do
  bin="$BUILD/bin/${name}_fuzzer"
  corpus="$BUILD/fuzz-corpus/$name"   # what this machine's runs found; grows across runs
  if [ "$RUN_ONLY" = 1 ]; then         # the smoke starts afresh each time (bounded start-up)
    corpus="$BUILD/fuzz-corpus-smoke/$name"
    rm -rf "$corpus"
  fi
  art="$BUILD/fuzz-artifacts"
  mkdir -p "$corpus" "$art"
  regress="fuzz/regressions/$name"
  echo "== $name: replaying $(ls "$regress" 2>/dev/null | wc -l) kept inputs"
  if [ -n "$(ls -A "$regress" 2>/dev/null)" ]; then
    "$bin" -runs=0 -rss_limit_mb=4096 -timeout=60 "$regress" 2>&1 | tail -n 3 || status=1
  fi
  LIMIT_ARGS=(-max_total_time="$SECONDS_EACH")
  if [ -n "$RUNS" ]; then
    LIMIT_ARGS=(-runs="$RUNS")
    [ "$SECONDS_EACH_SET" = 1 ] && LIMIT_ARGS+=(-max_total_time="$SECONDS_EACH")
  fi
  if [ -n "$RUNS" ]; then
    echo "== $name: fuzzing for $RUNS executions$([ "$SECONDS_EACH_SET" = 1 ] && echo " or ${SECONDS_EACH}s")"
  else
    echo "== $name: fuzzing for ${SECONDS_EACH}s"
  fi
  log="$art/$name.log"
  # -entropic=0: with a few thousand corpus units libFuzzer's entropic schedule spent 55% of the
  # onnx_model harness's time in its own feature bookkeeping (perf: UpdateFeatureFrequency,
  # AddRareFeature); without it the harness ran 62 -> 121-156 executions a second.
  if ! "$bin" $SEED_ARG "${LIMIT_ARGS[@]}" -timeout=30 -rss_limit_mb=4096 -malloc_limit_mb=4096 \
       -max_len=65536 -print_final_stats=1 -entropic=0 -artifact_prefix="$art/$name-" \
       "$corpus" "$SEEDS/$name" >"$log" 2>&1; then
    status=1
    echo "fuzz.sh: $name FAILED; see $log and the input in $art/:"
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -n 10
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" | tr '\n' ' '
  echo
done
exit $status
