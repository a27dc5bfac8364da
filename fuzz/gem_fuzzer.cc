// Fuzz harness: the offline model loader (.gem, src/compiler/gem_file.h) behind `ge run MODEL.gem`,
// aclmdlLoadFromMem and Model::LoadFromMemory: bytes -> Model::LoadFromMemory (header, checksum,
// every count/index/offset, graphs, sink programs re-proved and re-tiled, executors loaded) ->
// one Model::Run on zero inputs when the inputs are static and small. Any bytes must give a
// model or an error naming what is wrong.
// Mutator (libFuzzer): byte mutations, then three times in four the header's sizes and checksum
// are made consistent again so that the mutation reaches the structural checks behind them.
// Seeds: scripts/fuzz.sh compiles the bundled models with `ge compile`.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl_rt.h"
#include "compiler/gem_file.h"
#include "ge/model.h"
#include "runtime/device_init.h"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  setenv("GE_LOG_LEVEL", "off", 0);
  setenv("GE_HOST_MEMORY_LIMIT", "1073741824", 0);
  // Device memory too (a mutated shape asked for 6 GiB): GE's out-of-memory error, well below
  // libFuzzer's malloc limit. 2 MiB bounds a run's work (a mutated .gem ran 18 s under the
  // sanitizers with 64 MiB, and pooling/padding kernels over mutated shapes took 30-40% of the
  // harness's time at 64 and at 16 MiB); the seeds' sink arenas are at most 64 KiB.
  uint32_t cores = 0;
  if (ge::EnsureDevice(&cores).ok()) aclrtSetDeviceMemLimit(size_t{2} << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::unique_ptr<ge::Model> model;
  ge::Status st = ge::Model::LoadFromMemory(data, size, {}, &model, "fuzz.gem");
  if (!st.ok()) {
    if (st.message().empty()) std::abort();  // every error says what is wrong
    return 0;
  }
  std::vector<ge::HostTensor> inputs;
  for (const ge::TensorInfo& in : model->inputs()) {
    const int64_t n = in.desc.shape.GetShapeSize();
    if (!in.desc.shape.IsStatic() || n < 0 || n > 16384) return 0;
    inputs.emplace_back(in.desc.dtype, in.desc.shape);
  }
  std::vector<ge::HostTensor> outputs;
  (void)model->Run(inputs, &outputs);
  return 0;
}

#ifdef GE_LIBFUZZER
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  size = LLVMFuzzerMutate(data, size, max_size);
  if (seed % 4 == 0 || size < ge::kGemHeaderBytes || !ge::HasGemMagic(data, size)) return size;
  uint64_t file_bytes = size, weights_offset = 0;
  std::memcpy(&weights_offset, data + 40, 8);
  std::memcpy(data + 16, &file_bytes, 8);
  if (weights_offset <= size) {
    const uint64_t weights_bytes = size - weights_offset;
    std::memcpy(data + 48, &weights_bytes, 8);
  }
  const uint64_t sum = ge::GemChecksum(data, size);
  std::memcpy(data + 56, &sum, 8);
  return size;
}
#endif
