#!/usr/bin/env bash
# Configures the sanitizer build (default build-san): clang, -DGE_FUZZ=ON, so that everything is
# compiled with AddressSanitizer + UndefinedBehaviorSanitizer and the libFuzzer harnesses are
# built. scripts/test-sanitize.sh runs the whole test suite in it; scripts/fuzz.sh the fuzzers.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-san}
if [ ! -f "$BUILD/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -G Ninja -S . -B "$BUILD" -DGE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2" >/dev/null
fi
