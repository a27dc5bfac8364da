#!/usr/bin/env bash
# The sanitizer stage of CI (`make test-sanitize`):
#  1. the whole CTest suite (kernels, backend suites, models, tools, and a short run of each
#     libFuzzer harness, label "fuzz") under AddressSanitizer + UndefinedBehaviorSanitizer, in the
#     clang build build-san (-DGE_FUZZ=ON, scripts/configure-san.sh);
#  2. under ThreadSanitizer (gcc, build-tsan): the device runtime's stress tests (label
#     "runtime"), the executor's multi-stream tests and one Model shared by 8 threads
#     (ConcurrentRun: sink, host, mixed, control flow; fewer runs per thread).
# GE_SANITIZE_ONLY=asan|tsan runs one of the two.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
ONLY=${GE_SANITIZE_ONLY:-}
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"  # huge-tensor tests expect a clean OOM
export GE_CONCURRENT_RUNS=${GE_CONCURRENT_RUNS:-20}                # runs per thread in ConcurrentRun

if [ -z "$ONLY" ] || [ "$ONLY" = asan ]; then
  start=$(date +%s)
  bash scripts/configure-san.sh build-san
  ninja -C build-san -j"$JOBS"
  echo "== the whole suite under AddressSanitizer + UndefinedBehaviorSanitizer (built in $(( $(date +%s) - start ))s)"
  (cd build-san && ctest --output-on-failure -j"$JOBS" --timeout 1800)
  echo "== ASan+UBSan stage: $(( $(date +%s) - start ))s"
fi

if [ -z "$ONLY" ] || [ "$ONLY" = tsan ]; then
  start=$(date +%s)
  cmake -G Ninja -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGE_SANITIZE=thread >/dev/null
  ninja -C build-tsan -j"$JOBS" ge_runtime_tests
  echo "== runtime tests under the thread sanitizer"
  (cd build-tsan && ctest --output-on-failure -j"$JOBS" -L runtime --timeout 600)
  ninja -C build-tsan -j"$JOBS" ge_executor_tests ge_compiler_tests ge_api_tests
  echo "== multi-stream tests under the thread sanitizer"
  (cd build-tsan && ctest --output-on-failure -j"$JOBS" -R MultiStream --timeout 900)
  echo "== concurrent runs of one model (and the soak) under the thread sanitizer"
  (cd build-tsan && ctest --output-on-failure -j"$JOBS" -R "ConcurrentRun|Soak" --timeout 900)
  echo "== TSan stage: $(( $(date +%s) - start ))s"
fi
