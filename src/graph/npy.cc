#include "graph/npy.h"

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/checked_math.h"

namespace ge {
namespace {

struct NpyType {
  const char* descr;
  DataType dt;
};
constexpr NpyType kTypes[] = {{"<f4", DT_FLOAT},     {"<f8", DT_DOUBLE},     {"<f2", DT_FLOAT16}, {"|i1", DT_INT8},
                              {"<i2", DT_INT16},     {"<i4", DT_INT32},      {"<i8", DT_INT64},   {"|u1", DT_UINT8},
                              {"<u2", DT_UINT16},    {"<u4", DT_UINT32},     {"<u8", DT_UINT64},  {"|b1", DT_BOOL},
                              {"<c8", DT_COMPLEX64}, {"<c16", DT_COMPLEX128}};

// Header text for an error message: control and non-ASCII bytes as '?', at most 32 characters.
std::string Printable(const std::string& s) {
  std::string r = s.substr(0, 32);
  for (char& c : r)
    if (c < 0x20 || c > 0x7e) c = '?';
  return s.size() > 32 ? r + "..." : r;
}

}  // namespace

Status ReadNpy(const std::string& path, HostTensor* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return InvalidArgument("{}: cannot open file", path);
  return ReadNpyStream(f, path, out);
}

Status ReadNpyBytes(const std::string& bytes, HostTensor* out) {
  std::istringstream f(bytes, std::ios::binary);
  return ReadNpyStream(f, "<.npy bytes>", out);
}

Status ReadNpyStream(std::istream& f, const std::string& path, HostTensor* out) {
  char magic[8];
  if (!f.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    return InvalidArgument("{}: not a .npy file (bad magic)", path);
  uint32_t header_len = 0;
  if (magic[6] == 1) {
    uint16_t l16;
    f.read(reinterpret_cast<char*>(&l16), 2);
    header_len = l16;
  } else {
    f.read(reinterpret_cast<char*>(&header_len), 4);
  }
  if (!f || header_len > 65536) return InvalidArgument("{}: truncated .npy header", path);
  std::string header(header_len, '\0');
  if (!f.read(header.data(), header_len)) return InvalidArgument("{}: truncated .npy header", path);
  std::smatch m;
  if (!std::regex_search(header, m, std::regex("'descr':\\s*'([^']+)'")))
    return InvalidArgument("{}: .npy header has no descr", path);
  std::string descr = m[1];
  if (descr == "<i1" || descr == "i1") descr = "|i1";
  if (descr == "<u1" || descr == "u1") descr = "|u1";
  if (descr == "<b1" || descr == "b1" || descr == "?") descr = "|b1";
  DataType dt = DT_UNDEFINED;
  for (const auto& t : kTypes)
    if (descr == t.descr) dt = t.dt;
  if (dt == DT_UNDEFINED) return Unsupported("{}: unsupported .npy dtype '{}'", path, Printable(descr));
  if (std::regex_search(header, m, std::regex("'fortran_order':\\s*True")))
    return Unsupported("{}: Fortran-order .npy arrays are not supported", path);
  if (!std::regex_search(header, m, std::regex("'shape':\\s*\\(([^)]*)\\)")))
    return InvalidArgument("{}: .npy header has no shape", path);
  std::vector<int64_t> dims;
  std::stringstream ss(m[1].str());
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.find_first_not_of(" ") == std::string::npos) continue;
    auto d = ParseInt64(item);
    if (!d || *d < 0)
      return InvalidArgument("{}: .npy shape has '{}', not a dimension (an integer >= 0)", path, Printable(item));
    dims.push_back(*d);
  }
  auto bytes = CheckedTensorBytes(dims, GetSizeByDataType(dt));
  if (!bytes)
    return InvalidArgument("{}: .npy shape {} is too large (its byte size overflows 64 bits)", path,
                           Shape(dims).ToString());
  const std::streamoff here = f.tellg();
  f.seekg(0, std::ios::end);
  const std::streamoff left = f.tellg() - here;
  f.seekg(here);
  if (here < 0 || left < 0 || static_cast<uint64_t>(left) < *bytes)  // before allocating
    return InvalidArgument("{}: truncated .npy data (expected {} bytes for {} {})", path, *bytes, DataTypeName(dt),
                           Shape(dims).ToString());
  *out = HostTensor(dt, Shape(dims));
  if (!f.read(static_cast<char*>(out->mutable_data()), out->NumBytes()))
    return InvalidArgument("{}: truncated .npy data (expected {} bytes for {} {})", path, out->NumBytes(),
                           DataTypeName(dt), Shape(dims).ToString());
  return Status::Ok();
}

Status WriteNpy(const std::string& path, const HostTensor& t) {
  const char* descr = nullptr;
  for (const auto& k : kTypes)
    if (k.dt == t.dtype()) descr = k.descr;
  if (descr == nullptr) return Unsupported("{}: cannot write {} as .npy", path, DataTypeName(t.dtype()));
  const auto& dims = t.shape().GetDims();
  std::string shape = dims.size() == 1 ? fmt::format("({},)", dims[0]) : fmt::format("({})", fmt::join(dims, ", "));
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, shape);
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::ofstream f(path, std::ios::binary);
  if (!f) return InvalidArgument("{}: cannot write file", path);
  f.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = static_cast<uint16_t>(header.size());
  f.write(reinterpret_cast<const char*>(&len), 2);
  f.write(header.data(), header.size());
  f.write(static_cast<const char*>(t.data()), t.NumBytes());
  f.close();  // the bytes reach the file here (a full disk, /dev/full, fails now, not silently later)
  return f ? Status::Ok() : InvalidArgument("{}: write failed (disk full or I/O error)", path);
}

}  // namespace ge
