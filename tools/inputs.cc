// Input preparation for the `ge` tool: .npy files or deterministic random data.
#include <map>
#include <random>

#include <fmt/format.h>

#include "commands.h"
#include "ge/npy.h"

namespace ge::tool {
namespace {

Status ParseKeyValue(const std::string& arg, const char* flag, std::string* key, std::string* value) {
  auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) return InvalidArgument("{} '{}': expected NAME=VALUE", flag, arg);
  *key = arg.substr(0, eq);
  *value = arg.substr(eq + 1);
  return Status::Ok();
}

// The tensor's byte size fits int64 (what HostTensor can hold).
bool FitsInt64Bytes(const std::vector<int64_t>& dims, size_t elem_size) {
  int64_t n = static_cast<int64_t>(elem_size);
  for (int64_t d : dims)
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return false;
  return true;
}

template <typename T>
void FillRandom(HostTensor* t, std::mt19937* rng, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  T* p = t->mutable_data_as<T>();
  for (int64_t i = 0; i < t->NumElements(); ++i) p[i] = static_cast<T>(dist(*rng));
}

void FillRandom(HostTensor* t, uint32_t seed) {
  std::mt19937 rng(seed);
  switch (t->dtype()) {
    case DT_FLOAT: FillRandom<float>(t, &rng, -1, 1); break;
    case DT_DOUBLE: FillRandom<double>(t, &rng, -1, 1); break;
    case DT_INT64: FillRandom<int64_t>(t, &rng, 0, 8); break;
    case DT_INT32: FillRandom<int32_t>(t, &rng, 0, 8); break;
    case DT_INT8: FillRandom<int8_t>(t, &rng, -8, 8); break;
    case DT_UINT8: FillRandom<uint8_t>(t, &rng, 0, 8); break;
    case DT_BOOL: FillRandom<uint8_t>(t, &rng, 0, 2); break;
    default: break;  // zero-filled
  }
}

}  // namespace

namespace {

Status PrepareInputsOrThrow(const std::vector<TensorInfo>& model_inputs, const std::vector<std::string>& input_files,
                            const std::map<std::string, std::vector<int64_t>>& shapes, std::vector<HostTensor>* inputs,
                            const std::string& npz) {
  std::map<std::string, HostTensor> archive;
  if (!npz.empty()) {
    std::vector<std::pair<std::string, HostTensor>> entries;
    GE_RETURN_IF_ERROR(ReadNpz(npz, &entries).Prepend("--inputs: "));
    for (auto& [name, t] : entries) archive[name] = std::move(t);
  }
  std::map<std::string, std::string> files;
  for (const auto& a : input_files) {
    std::string k, v;
    GE_RETURN_IF_ERROR(ParseKeyValue(a, "--input", &k, &v));
    files[k] = v;
  }
  std::map<std::string, bool> known;
  for (const TensorInfo& in : model_inputs) known[in.name] = true;
  for (const auto& [k, f] : files)
    if (!known.count(k)) return InvalidArgument("--input {}: the model has no input named '{}'", k, k);
  for (const auto& [k, s] : shapes)
    if (!known.count(k)) return InvalidArgument("--input-shape {}: the model has no input named '{}'", k, k);
  for (const auto& [k, t] : archive)
    if (!known.count(k))
      return InvalidArgument("--inputs {}: entry '{}' is not an input of the model (its inputs: {})", npz, k, [&] {
        std::string names;
        for (const TensorInfo& in : model_inputs) names += (names.empty() ? "" : ", ") + in.name;
        return names;
      }());
  inputs->clear();
  for (size_t i = 0; i < model_inputs.size(); ++i) {
    const TensorInfo& decl = model_inputs[i];
    HostTensor t;
    if (auto it = files.find(decl.name); it != files.end()) {
      GE_RETURN_IF_ERROR(ReadNpy(it->second, &t));
    } else if (auto a = archive.find(decl.name); a != archive.end()) {
      t = std::move(a->second);
    } else if (!npz.empty()) {
      return InvalidArgument("--inputs {}: has no entry for input '{}' (np.savez(FILE, **{{'{}': array}}))", npz,
                             decl.name, decl.name);
    } else {
      std::vector<int64_t> dims = decl.desc.shape.IsUnknownRank() ? std::vector<int64_t>{} : decl.desc.shape.GetDims();
      if (auto s = shapes.find(decl.name); s != shapes.end()) dims = s->second;
      for (auto& d : dims)
        if (d < 0) d = 1;  // a dynamic dim of the declared shape, no --input-shape given
      if (!FitsInt64Bytes(dims, GetSizeByDataType(decl.desc.dtype)))
        return InvalidArgument("input '{}': shape {} is too large (its byte size overflows 64 bits)", decl.name,
                               Shape(dims).ToString());
      t = HostTensor(decl.desc.dtype, Shape(dims));
      FillRandom(&t, static_cast<uint32_t>(i + 1));
    }
    inputs->push_back(std::move(t));
  }
  return Status::Ok();
}

}  // namespace

Status PrepareInputs(const std::vector<TensorInfo>& model_inputs, const std::vector<std::string>& input_files,
                     const std::map<std::string, std::vector<int64_t>>& shapes, std::vector<HostTensor>* inputs,
                     const std::string& npz) {
  try {  // a huge tensor a file asks for: an error, not a crash
    return PrepareInputsOrThrow(model_inputs, input_files, shapes, inputs, npz);
  } catch (const std::exception& e) {
    return Error(Status::kOutOfMemory, "reading the inputs: {}", e.what());
  }
}

double Checksum(const HostTensor& t) {
  double sum = 0;
  for (double v : t.ToDoubleVector()) sum += v;
  return sum;
}

}  // namespace ge::tool
