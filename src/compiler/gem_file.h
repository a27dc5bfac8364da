// The offline model file (.gem): a CompiledGraph written to disk and loaded back without compiling.
//
// Layout (little-endian):
//   [0, 64)        header: magic "GEMODEL\0", format version, header size, file size, the offsets
//                  and sizes of the two sections, and a 64-bit checksum of every other byte
//   meta section   the producer, the kernel target, the compile options, the compiled graph and
//                  each segment graph (values, nodes, attributes, subgraphs), per segment its node
//                  list and I/O and either the sink program (schedule, tasks with block dim,
//                  tiling data and bound arguments, stream assignment, memory plan) or the host
//                  placement; the reports
//   weights        from a 4096-byte boundary: every constant's bytes, each 64-byte aligned, stored
//                  once however many graphs hold it (so the section can be memory-mapped)
//
// Loading checks, in this order: the header against the file size, the checksum, the kernel
// target (the machine's ISA, oneDNN and caches: packed weights layouts depend on them), then every
// count, index, offset and size in the meta section (reads are bounds-checked; counts are bounded
// by the bytes left) and, once built, each graph (Graph::Verify, operators registered), each sink
// program (schedule a topological permutation, every kernel argument inside the arena with the
// bytes its tensor needs, streams and events in range, the memory plan re-proved by the memory
// checker) and each weight against the weights section. Then each sink node's shape inference and
// tiling run again (task_generator.h, RetileSinkProgram): kernel addresses are never stored, and a
// tiling may hold objects prepared in the loading process (oneDNN primitives); the fresh result
// must agree with the file's shapes, block dims, tiling sizes and workspaces. A file from another
// format version is refused.
#ifndef GE_SRC_COMPILER_GEM_FILE_H_
#define GE_SRC_COMPILER_GEM_FILE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/compile_options.h"
#include "compiler/compiled_graph.h"

namespace ge {

// 2: the packed convolution weights follow the balanced row blocks (kernels::BlockRange and
// WholeRounds in ops/dnnl_conv.h choose other block rows, and so other packed layouts, than
// version 1's GE did; a version-1 file's weights would load with the right size and the wrong
// layout).
// 3: the file records the kernel target it was compiled for (kernels/kernel_target.h), and a
// file from another target is refused: oneDNN chooses the packed weights layouts by ISA, version
// and cache sizes, so a file moved to another machine could load with the wrong layout.
constexpr uint32_t kGemFormatVersion = 3;
constexpr size_t kGemHeaderBytes = 64;

// What a .gem records about its compilation (shown by `ge info`).
struct GemInfo {
  uint32_t format_version = kGemFormatVersion;
  std::string producer;  // "GE <version>"
  // The kernel target the file was compiled for (kernels::KernelTarget() of the compiling
  // process; SerializeCompiledGraph writes the current one, whatever this holds).
  std::string target;
  std::string source;  // the model file compiled
  CompileOptions options;
  uint32_t core_num = 1;  // the device cores the tiling was computed for
  uint64_t meta_bytes = 0, weights_bytes = 0;
  // LoadCompiledGraph: the file's mapping, which the constants alias until DetachFromFile.
  uintptr_t mapped_begin = 0, mapped_end = 0;
};

// True when `data` starts with the .gem magic (enough to choose the loader).
bool HasGemMagic(const void* data, size_t size);
// True when the file at `path` starts with the .gem magic (false when unreadable).
bool IsGemFile(const std::string& path);

// Serializes `compiled` (straight from Compile, before any executor released its constants).
Status SerializeCompiledGraph(const CompiledGraph& compiled, const GemInfo& info, std::vector<uint8_t>* out);
Status SaveCompiledGraph(const CompiledGraph& compiled, const GemInfo& info, const std::string& path);

// `source` names the file in errors. Fails with a message naming what is wrong and where. With
// `owner` (what keeps `data` alive), constants alias `data` instead of copying it.
Status DeserializeCompiledGraph(const uint8_t* data, size_t size, const std::string& source,
                                std::unique_ptr<CompiledGraph>* out, GemInfo* info, std::shared_ptr<void> owner = {});
// Maps the file: the constants alias the mapping (sink segments copy their weights from it to the
// device once, nothing in between). Call DetachFromFile before loading the executors.
Status LoadCompiledGraph(const std::string& path, std::unique_ptr<CompiledGraph>* out, GemInfo* info);
// Copies the constants host segments read into memory of their own (the sink segments' stay
// aliased: their executors copy them to the device and release them), so the mapping goes once
// the executors are loaded and a later change to the file, or its truncation, cannot reach a
// running model.
void DetachFromFile(CompiledGraph* compiled, const GemInfo& info);

// The checksum stored at header offset 56: a 64-bit hash of bytes [0, 56) and [64, size).
uint64_t GemChecksum(const uint8_t* data, size_t size);

}  // namespace ge

#endif  // GE_SRC_COMPILER_GEM_FILE_H_
