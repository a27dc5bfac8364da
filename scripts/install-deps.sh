#!/usr/bin/env bash
# Installs every Debian package GE's build, tests and `make run` need.
# Idempotent: does nothing (and needs no network) when all are present.
set -euo pipefail

PACKAGES=(
  # clang + libclang_rt (libFuzzer, sanitizers): the fuzzers and the sanitizer build (GE_FUZZ=ON)
  build-essential cmake ninja-build pkg-config
  protobuf-compiler libprotobuf-dev
  libonnx-dev libonnx-testdata
  libdnnl-dev libsleef-dev
  libspdlog-dev libfmt-dev
  libcli11-dev nlohmann-json3-dev
  graphviz  # `ge dump --format svg` runs its dot
  zlib1g-dev  # .npz files (ge run --inputs/--outputs): deflated entries
  libgtest-dev libgmock-dev libbenchmark-dev
  python3-numpy python3-onnx python3-torch python3-torchvision
  pybind11-dev python3-dev python3-pytest  # the `ge` Python package (python/) and its tests
  clang libclang-rt-14-dev libomp-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
