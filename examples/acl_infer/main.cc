// acl_infer: an inference application written only against the ACL API (acl/acl.h), as an
// Ascend application would be: initialize, open the device and a context, load a model,
// describe it, allocate device buffers, copy inputs in, execute, copy outputs out, unload,
// finalize.
//
//   acl_infer MODEL [INPUT.bin ...] [-o OUTPUT_PREFIX]     (MODEL: a .gem from `ge compile`, or an .onnx)
//
// Each INPUT.bin holds one input's raw bytes (exactly its size); without them every input is
// filled with a fixed pattern. Prints each output's name, dims and a checksum (sum and sum of
// absolute values of its float elements); with -o, writes output i to OUTPUT_PREFIX<i>.bin.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

bool Check(aclError ret, const char* what) {
  if (ret == ACL_SUCCESS) return true;
  std::fprintf(stderr, "acl_infer: %s failed (%d): %s\n", what, ret, aclGetRecentErrMsg());
  return false;
}

bool ReadFile(const std::string& path, std::vector<char>* bytes) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes->insert(bytes->end(), buf, buf + n);
  std::fclose(f);
  return true;
}

std::string Dims(const aclmdlIODims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.dimCount; ++i) s += (i ? ", " : "") + std::to_string(d.dims[i]);
  return s + "]";
}

struct Buffers {
  std::vector<void*> dev;
  aclmdlDataset* dataset = nullptr;
};

// One device buffer per tensor of the model's inputs or outputs, in a dataset.
bool Allocate(aclmdlDesc* desc, bool inputs, Buffers* b) {
  b->dataset = aclmdlCreateDataset();
  if (b->dataset == nullptr) return Check(ACL_ERROR_BAD_ALLOC, "aclmdlCreateDataset");
  const size_t n = inputs ? aclmdlGetNumInputs(desc) : aclmdlGetNumOutputs(desc);
  for (size_t i = 0; i < n; ++i) {
    const size_t size = inputs ? aclmdlGetInputSizeByIndex(desc, i) : aclmdlGetOutputSizeByIndex(desc, i);
    void* dev = nullptr;
    if (size > 0 && !Check(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc")) return false;
    b->dev.push_back(dev);
    aclDataBuffer* db = aclCreateDataBuffer(dev, size);
    if (db == nullptr) return Check(ACL_ERROR_BAD_ALLOC, "aclCreateDataBuffer");
    if (!Check(aclmdlAddDatasetBuffer(b->dataset, db), "aclmdlAddDatasetBuffer")) return false;
  }
  return true;
}

void Free(Buffers* b) {
  if (b->dataset != nullptr) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(b->dataset); ++i)
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(b->dataset, i));
    aclmdlDestroyDataset(b->dataset);
  }
  for (void* p : b->dev)
    if (p != nullptr) aclrtFree(p);
}

int Run(const std::string& model_path, const std::vector<std::string>& input_files, const std::string& out_prefix) {
  uint32_t model_id = 0;
  if (!Check(aclmdlLoadFromFile(model_path.c_str(), &model_id), "aclmdlLoadFromFile")) return 1;
  aclmdlDesc* desc = aclmdlCreateDesc();
  Buffers in, out;
  int rc = 1;
  do {
    if (desc == nullptr || !Check(aclmdlGetDesc(desc, model_id), "aclmdlGetDesc")) break;
    const size_t num_in = aclmdlGetNumInputs(desc), num_out = aclmdlGetNumOutputs(desc);
    if (!input_files.empty() && input_files.size() != num_in) {
      std::fprintf(stderr, "acl_infer: the model has %zu inputs, %zu input files given\n", num_in, input_files.size());
      break;
    }
    if (!Allocate(desc, true, &in) || !Allocate(desc, false, &out)) break;
    bool ok = true;
    for (size_t i = 0; i < num_in && ok; ++i) {
      const size_t size = aclmdlGetInputSizeByIndex(desc, i);
      std::vector<char> host;
      if (!input_files.empty()) {
        if (!ReadFile(input_files[i], &host) || host.size() != size) {
          std::fprintf(stderr, "acl_infer: %s: cannot read %zu bytes for input '%s'\n", input_files[i].c_str(), size,
                       aclmdlGetInputNameByIndex(desc, i));
          ok = false;
          break;
        }
      } else if (aclmdlGetInputDataType(desc, i) == ACL_FLOAT) {  // a fixed pattern in [-1, 1)
        host.resize(size);
        for (size_t e = 0; e < size / sizeof(float); ++e) {
          const float v = static_cast<float>(e % 17) / 8.5f - 1.f;
          std::memcpy(host.data() + e * sizeof(float), &v, sizeof(float));
        }
      } else {
        host.assign(size, 1);
      }
      if (size > 0)
        ok = Check(aclrtMemcpy(in.dev[i], size, host.data(), size, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
    }
    if (!ok || !Check(aclmdlExecute(model_id, in.dataset, out.dataset), "aclmdlExecute")) break;
    for (size_t o = 0; o < num_out && ok; ++o) {
      const size_t size = aclmdlGetOutputSizeByIndex(desc, o);
      std::vector<char> host(size);
      if (size > 0 &&
          !Check(aclrtMemcpy(host.data(), size, out.dev[o], size, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy")) {
        ok = false;
        break;
      }
      aclmdlIODims dims;
      if (!Check(aclmdlGetOutputDims(desc, o, &dims), "aclmdlGetOutputDims")) {
        ok = false;
        break;
      }
      double sum = 0, abs_sum = 0;
      if (aclmdlGetOutputDataType(desc, o) == ACL_FLOAT) {
        for (size_t e = 0; e < size / sizeof(float); ++e) {
          float v;
          std::memcpy(&v, host.data() + e * sizeof(float), sizeof(float));
          sum += v;
          abs_sum += v < 0 ? -v : v;
        }
      }
      std::printf("output %zu '%s' %s: %zu bytes, sum %.6f, abs sum %.6f\n", o, aclmdlGetOutputNameByIndex(desc, o),
                  Dims(dims).c_str(), size, sum, abs_sum);
      if (!out_prefix.empty()) {
        const std::string path = out_prefix + std::to_string(o) + ".bin";
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (f == nullptr || std::fwrite(host.data(), 1, size, f) != size) {
          std::fprintf(stderr, "acl_infer: cannot write %s\n", path.c_str());
          ok = false;
        }
        if (f != nullptr) std::fclose(f);
      }
    }
    if (ok) rc = 0;
  } while (false);
  Free(&in);
  Free(&out);
  if (desc != nullptr) aclmdlDestroyDesc(desc);
  if (!Check(aclmdlUnload(model_id), "aclmdlUnload")) rc = 1;
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  std::string model, out_prefix;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-o" && i + 1 < argc) {
      out_prefix = argv[++i];
    } else if (model.empty()) {
      model = a;
    } else {
      inputs.push_back(a);
    }
  }
  if (model.empty()) {
    std::fprintf(stderr, "usage: acl_infer MODEL [INPUT.bin ...] [-o OUTPUT_PREFIX]\n");
    return 2;
  }
  if (!Check(aclInit(nullptr), "aclInit")) return 1;
  if (!Check(aclrtSetDevice(0), "aclrtSetDevice")) return 1;
  aclrtContext context = nullptr;
  if (!Check(aclrtCreateContext(&context, 0), "aclrtCreateContext")) return 1;
  const int rc = Run(model, inputs, out_prefix);
  aclrtDestroyContext(context);
  aclrtResetDevice(0);
  if (!Check(aclFinalize(), "aclFinalize")) return 1;
  return rc;
}
