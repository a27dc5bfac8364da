# GE top-level entry points. Both targets install what is missing (Debian packages, via
# scripts/install-deps.sh), configure and build, then act.
#   make run             build and run GE on the bundled models (sink and host modes)
#   make test            build and run every test (ctest)
#   make test-models     the whole real-model suite against PyTorch's outputs, at -O2 and -O0 (slow)
#   make test-sanitize   the whole suite under ASan+UBSan (clang build build-san, with a short
#                        run of each fuzzer), the runtime/stream/concurrency tests under TSan
#   make fuzz            the libFuzzer harnesses (fuzz/), FUZZ_SECONDS each (default 60), or
#                        FUZZ_RUNS executions each (FUZZ_RUNS=1000000: the issue's target)
#   make bench           build the benchmarks (see bench/README.md)
#   make install-python  build, then make `import ge` work in Debian's /usr/bin/python3 (a .pth
#                        file pointing at $(BUILD)/python; rebuilds are picked up)

BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release
PY := /usr/bin/python3

FUZZ_SECONDS ?= 60

.PHONY: all deps configure build run test test-models test-sanitize fuzz bench clean install-python

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -G Ninja -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: deps configure
	ninja -C $(BUILD) -j$(JOBS)

run: build
	@bash scripts/run-demo.sh $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) --timeout 1500

# Every model of the real-model suite (exports cached under $(BUILD)/models; ~1 GB, slow once).
test-models: build
	$(PY) tests/models/model_suite.py --ge $(BUILD)/bin/ge --cache $(BUILD)/models --models all
	$(PY) tests/models/model_suite.py --ge $(BUILD)/bin/ge --cache $(BUILD)/models --models all --ge-args=-O0

test-sanitize: deps
	@bash scripts/test-sanitize.sh

fuzz: deps
	@JOBS=$(JOBS) bash scripts/fuzz.sh $(if $(FUZZ_RUNS),--runs $(FUZZ_RUNS) $(if $(filter command line,$(origin FUZZ_SECONDS)),--seconds $(FUZZ_SECONDS)),--seconds $(FUZZ_SECONDS))

bench: build
	@echo "benchmarks built in $(BUILD)/bench; see bench/README.md"

# The package stays in the build tree (the extension links $(BUILD)/src/libge.so): a .pth file in
# Debian's site-packages (/usr/local/lib/python3.X/dist-packages) adds $(BUILD)/python to sys.path.
install-python: build
	@site=$$($(PY) -c 'import site; print(site.getsitepackages()[0])') && mkdir -p "$$site" && \
	  realpath $(BUILD)/python > "$$site/ge.pth" && \
	  cd / && $(PY) -c 'import ge; print("installed ge for $(PY) from", ge.__file__)'


clean:
	rm -rf $(BUILD) build-asan build-tsan build-san
