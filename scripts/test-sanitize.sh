#!/usr/bin/env bash
# Builds the runtime tests under AddressSanitizer and ThreadSanitizer and runs the device
# runtime's stress tests (label "runtime", plus "sanitize" for executor multi-stream tests).
set -euo pipefail
JOBS=${JOBS:-$(nproc)}
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
export ASAN_OPTIONS="detect_leaks=1"
for san in address thread; do
  dir=build-asan
  [ "$san" = thread ] && dir=build-tsan
  cmake -G Ninja -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGE_SANITIZE=$san >/dev/null
  ninja -C "$dir" -j"$JOBS" ge_runtime_tests
  echo "== runtime tests under the $san sanitizer"
  (cd "$dir" && ctest --output-on-failure -j"$JOBS" -L runtime --timeout 600)
done
