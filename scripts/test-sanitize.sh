#!/usr/bin/env bash
# Builds the runtime tests under AddressSanitizer and ThreadSanitizer and runs the device
# runtime's stress tests (label "runtime"); under ThreadSanitizer also the executor's
# multi-stream tests (sink models with several streams and events) and one Model shared by 8
# threads (ConcurrentRun: sink, host, mixed, control flow; fewer runs per thread).
set -euo pipefail
JOBS=${JOBS:-$(nproc)}
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"  # huge-tensor tests expect a clean OOM
for san in address thread; do
  dir=build-asan
  [ "$san" = thread ] && dir=build-tsan
  cmake -G Ninja -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGE_SANITIZE=$san >/dev/null
  ninja -C "$dir" -j"$JOBS" ge_runtime_tests
  echo "== runtime tests under the $san sanitizer"
  (cd "$dir" && ctest --output-on-failure -j"$JOBS" -L runtime --timeout 600)
  if [ "$san" = thread ]; then
    ninja -C "$dir" -j"$JOBS" ge_executor_tests ge_compiler_tests ge_api_tests
    echo "== multi-stream tests under the thread sanitizer"
    (cd "$dir" && ctest --output-on-failure -j"$JOBS" -R MultiStream --timeout 900)
    echo "== concurrent runs of one model under the thread sanitizer"
    (cd "$dir" && GE_CONCURRENT_RUNS=20 ctest --output-on-failure -j"$JOBS" -R ConcurrentRun --timeout 900)
  fi
done
