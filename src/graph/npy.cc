#include "graph/npy.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <zlib.h>

#include "base/checked_math.h"
#include "graph/types.h"

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

void AppendUtf8(uint32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// UTF-8 to code points; invalid bytes read as U+FFFD.
std::vector<uint32_t> DecodeUtf8(const std::string& s) {
  std::vector<uint32_t> cps;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    uint32_t c = len == 1 ? b : len == 2 ? b & 0x1F : len == 3 ? b & 0x0F : b & 0x07;
    bool ok = len > 0 && i + static_cast<size_t>(len) <= s.size();
    for (int k = 1; ok && k < len; ++k) {
      const auto cb = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      ok = (cb & 0xC0) == 0x80;
      c = (c << 6) | (cb & 0x3F);
    }
    cps.push_back(ok ? c : 0xFFFD);
    i += ok ? static_cast<size_t>(len) : 1;
  }
  return cps;
}

// numpy's fixed-width strings (`unit` 4: UTF-32 '<U', 1: bytes '|S'; trailing NULs pad) into a
// DT_STRING tensor (UTF-8).
Status StringsFromNpy(const std::string& raw, size_t width, size_t unit, const Shape& shape, const std::string& path,
                      HostTensor* out) {
  HostTensor t(DT_STRING, shape);
  const size_t slot = width * unit;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    const char* p = raw.data() + static_cast<size_t>(i) * slot;
    std::string s;
    if (unit == 1) {
      s.assign(p, strnlen(p, width));
    } else {
      for (size_t k = 0; k < width; ++k) {
        uint32_t c;
        std::memcpy(&c, p + 4 * k, 4);
        if (c == 0) break;
        if (c > 0x10FFFF) return InvalidArgument("{}: string element {} is not valid UTF-32", path, i);
        AppendUtf8(c, &s);
      }
    }
    if (!t.SetString(i, s))
      return InvalidArgument("{}: string element {} has {} bytes (UTF-8); a string tensor element holds at most {}",
                             path, i, s.size(), kStringSlotBytes - 1);
  }
  *out = std::move(t);
  return Status::Ok();
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
  // Compiled once: building a std::regex took 39% of reading a small .npy (perf, npy harness).
  static const std::regex kDescr("'descr':\\s*'([^']+)'"), kStringDescr("(<|\\||=)?([US])([0-9]{1,6})"),
      kFortran("'fortran_order':\\s*True"), kShape("'shape':\\s*\\(([^)]*)\\)");
  std::smatch m;
  if (!std::regex_search(header, m, kDescr)) return InvalidArgument("{}: .npy header has no descr", path);
  std::string descr = m[1];
  if (descr == "<i1" || descr == "i1") descr = "|i1";
  if (descr == "<u1" || descr == "u1") descr = "|u1";
  if (descr == "<b1" || descr == "b1" || descr == "?") descr = "|b1";
  DataType dt = DT_UNDEFINED;
  for (const auto& t : kTypes)
    if (descr == t.descr) dt = t.dt;
  // Strings: '<U8' (UTF-32, 8 characters a slot) or '|S8' (8 bytes a slot).
  size_t str_width = 0, str_unit = 0;
  if (std::regex_match(descr, m, kStringDescr)) {
    str_unit = m[2] == "U" ? 4 : 1;
    if (m[1] == "|" && str_unit == 4) str_unit = 0;
    str_width = static_cast<size_t>(std::stoul(m[3].str()));
    if (str_unit != 0) dt = DT_STRING;
  }
  if (descr == "|O" || descr == "O")
    return Unsupported("{}: .npy object arrays (dtype=object) are pickled; save strings as np.array(..., dtype=str)",
                       path);
  if (dt == DT_UNDEFINED) return Unsupported("{}: unsupported .npy dtype '{}'", path, Printable(descr));
  if (std::regex_search(header, m, kFortran))
    return Unsupported("{}: Fortran-order .npy arrays are not supported", path);
  if (!std::regex_search(header, m, kShape)) return InvalidArgument("{}: .npy header has no shape", path);
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
  auto bytes = CheckedTensorBytes(dims, dt == DT_STRING ? str_width * str_unit : GetSizeByDataType(dt));
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
  if (dt == DT_STRING) {
    // Each element becomes a kStringSlotBytes slot: bound what a file of zero-width strings asks.
    if (str_width == 0 && Shape(dims).GetShapeSize() > (int64_t{1} << 20))
      return InvalidArgument("{}: {} empty strings ('{}') is too many", path, Shape(dims).GetShapeSize(),
                             Printable(descr));
    std::string raw(*bytes, '\0');
    if (*bytes > 0 && !f.read(raw.data(), static_cast<std::streamsize>(*bytes)))
      return InvalidArgument("{}: truncated .npy data", path);
    return StringsFromNpy(raw, str_width, str_unit, Shape(dims), path, out);
  }
  *out = HostTensor(dt, Shape(dims));
  if (!f.read(static_cast<char*>(out->mutable_data()), out->NumBytes()))
    return InvalidArgument("{}: truncated .npy data (expected {} bytes for {} {})", path, out->NumBytes(),
                           DataTypeName(dt), Shape(dims).ToString());
  return Status::Ok();
}

Status NpyBytes(const HostTensor& t, const std::string& path, std::string* out) {
  std::string descr;
  for (const auto& k : kTypes)
    if (k.dt == t.dtype()) descr = k.descr;
  // Strings as numpy's '<U{width}' (UTF-32, padded with NULs to the longest element).
  std::vector<std::vector<uint32_t>> strs;
  size_t width = 1;
  if (t.dtype() == DT_STRING) {
    for (const std::string& s : t.strings()) {
      strs.push_back(DecodeUtf8(s));
      width = std::max(width, strs.back().size());
    }
    descr = fmt::format("<U{}", width);
  }
  if (descr.empty()) return Unsupported("{}: cannot write {} as .npy", path, DataTypeName(t.dtype()));
  const auto& dims = t.shape().GetDims();
  std::string shape = dims.size() == 1 ? fmt::format("({},)", dims[0]) : fmt::format("({})", fmt::join(dims, ", "));
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, shape);
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  out->assign("\x93NUMPY\x01\x00", 8);
  uint16_t len = static_cast<uint16_t>(header.size());
  out->append(reinterpret_cast<const char*>(&len), 2);
  out->append(header);
  if (t.dtype() == DT_STRING) {
    for (const auto& cps : strs) {
      std::vector<uint32_t> slot(width, 0);
      std::copy(cps.begin(), cps.end(), slot.begin());
      out->append(reinterpret_cast<const char*>(slot.data()), width * 4);
    }
  } else if (t.NumBytes() > 0) {
    out->append(static_cast<const char*>(t.data()), t.NumBytes());
  }
  return Status::Ok();
}

Status WriteNpy(const std::string& path, const HostTensor& t) {
  std::string bytes;
  GE_RETURN_IF_ERROR(NpyBytes(t, path, &bytes));
  std::ofstream f(path, std::ios::binary);
  if (!f) return InvalidArgument("{}: cannot write file", path);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();  // the bytes reach the file here (a full disk, /dev/full, fails now, not silently later)
  return f ? Status::Ok() : InvalidArgument("{}: write failed (disk full or I/O error)", path);
}

// ---- .npz: a zip archive of NAME.npy entries (np.savez: stored; np.savez_compressed: deflated).
namespace {

uint32_t Le32(const unsigned char* p) {
  return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
uint16_t Le16(const unsigned char* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint64_t Le64(const unsigned char* p) { return Le32(p) | (static_cast<uint64_t>(Le32(p + 4)) << 32); }
void Put16(std::string* o, uint32_t v) {
  o->push_back(static_cast<char>(v & 0xFF));
  o->push_back(static_cast<char>((v >> 8) & 0xFF));
}
void Put32(std::string* o, uint32_t v) {
  Put16(o, v & 0xFFFF);
  Put16(o, v >> 16);
}

Status Inflate(const unsigned char* src, size_t n, size_t want, const std::string& what, std::string* out) {
  out->assign(want, '\0');
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return Internal("{}: cannot start zlib", what);
  z.next_in = const_cast<unsigned char*>(src);
  z.avail_in = static_cast<uInt>(n);
  z.next_out = reinterpret_cast<unsigned char*>(out->data());
  z.avail_out = static_cast<uInt>(want);
  const int rc = inflate(&z, Z_FINISH);
  const size_t got = z.total_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || got != want) return InvalidArgument("{}: corrupt deflated data", what);
  return Status::Ok();
}

}  // namespace

Status ReadNpz(const std::string& path, std::vector<std::pair<std::string, HostTensor>>* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return InvalidArgument("{}: cannot open file", path);
  std::string data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto* d = reinterpret_cast<const unsigned char*>(data.data());
  const size_t size = data.size();
  // The end-of-central-directory record: the last "PK\5\6" within 64 KiB + 22 of the end.
  size_t eocd = std::string::npos;
  for (size_t i = size >= 22 ? size - 22 + 1 : 0; i-- > 0 && size - i <= 65557;)
    if (Le32(d + i) == 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd == std::string::npos) return InvalidArgument("{}: not a .npz file (no zip directory)", path);
  uint64_t entries = Le16(d + eocd + 10), cd_size = Le32(d + eocd + 12), cd_off = Le32(d + eocd + 16);
  if ((entries == 0xFFFF || cd_off == 0xFFFFFFFF) && eocd >= 20 && Le32(d + eocd - 20) == 0x07064b50) {
    const uint64_t z64 = Le64(d + eocd - 20 + 8);  // zip64 end of central directory record
    if (z64 > size || size - z64 < 56 || Le32(d + z64) != 0x06064b50)
      return InvalidArgument("{}: corrupt zip64 directory", path);
    entries = Le64(d + z64 + 32);
    cd_size = Le64(d + z64 + 40);
    cd_off = Le64(d + z64 + 48);
  }
  if (cd_off > size || cd_size > size - cd_off) return InvalidArgument("{}: corrupt zip directory", path);
  out->clear();
  size_t p = static_cast<size_t>(cd_off);
  for (uint64_t e = 0; e < entries; ++e) {
    if (p > size || size - p < 46 || Le32(d + p) != 0x02014b50)
      return InvalidArgument("{}: corrupt zip directory entry {}", path, e);
    const uint16_t method = Le16(d + p + 10), name_len = Le16(d + p + 28), extra_len = Le16(d + p + 30),
                   comment_len = Le16(d + p + 32);
    uint64_t csize = Le32(d + p + 20), usize = Le32(d + p + 24), local = Le32(d + p + 42);
    const uint32_t crc_want = Le32(d + p + 16);
    if (size - p - 46 < static_cast<size_t>(name_len) + extra_len + comment_len)
      return InvalidArgument("{}: corrupt zip directory entry {}", path, e);
    std::string name(reinterpret_cast<const char*>(d + p + 46), name_len);
    // Zip64 sizes and offset, in this order, for the fields that read 0xFFFFFFFF.
    for (size_t x = p + 46 + name_len; x + 4 <= p + 46 + name_len + extra_len;) {
      const uint16_t id = Le16(d + x), len = Le16(d + x + 2);
      if (x + 4 + len > p + 46 + name_len + extra_len) break;
      if (id == 1) {
        size_t q = x + 4, end = x + 4 + len;
        auto next = [&](uint64_t* v) {
          if (*v == 0xFFFFFFFF && q + 8 <= end) {
            *v = Le64(d + q);
            q += 8;
          }
        };
        next(&usize);
        next(&csize);
        next(&local);
      }
      x += 4 + len;
    }
    p += 46 + name_len + extra_len + comment_len;
    const std::string what = fmt::format("{}: entry '{}'", path, Printable(name));
    if (local > size || size - local < 30 || Le32(d + local) != 0x04034b50)
      return InvalidArgument("{}: corrupt local header", what);
    const uint64_t start = local + 30 + Le16(d + local + 26) + Le16(d + local + 28);
    if (start > size || csize > size - start) return InvalidArgument("{}: truncated data", what);
    std::string bytes;
    if (method == 0) {
      if (csize != usize) return InvalidArgument("{}: stored entry with different sizes", what);
      bytes.assign(reinterpret_cast<const char*>(d + start), csize);
    } else if (method == 8) {
      // Deflate expands at most ~1032:1: a larger size is a corrupt header, not an allocation.
      if (usize > csize * 1032 + 1024) return InvalidArgument("{}: corrupt sizes in the zip directory", what);
      GE_RETURN_IF_ERROR(Inflate(d + start, csize, usize, what, &bytes));
    } else {
      return Unsupported("{}: zip compression method {} (np.savez and np.savez_compressed write 0 and 8)", what,
                         method);
    }
    if (crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()) != crc_want)
      return InvalidArgument("{}: CRC mismatch (corrupt file)", what);
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0) name.resize(name.size() - 4);
    HostTensor t;
    std::istringstream in(bytes, std::ios::binary);
    GE_RETURN_IF_ERROR(ReadNpyStream(in, what, &t));
    out->emplace_back(std::move(name), std::move(t));
  }
  return Status::Ok();
}

Status WriteNpz(const std::string& path, const std::vector<std::pair<std::string, HostTensor>>& tensors) {
  std::string zip, dir;
  for (const auto& [name, t] : tensors) {
    std::string bytes;
    GE_RETURN_IF_ERROR(NpyBytes(t, path + ": " + name, &bytes));
    const std::string entry = name + ".npy";
    if (bytes.size() >= 0xFFFFFFFFu || zip.size() >= 0xFFFFFFFFu)
      return Unsupported("{}: '{}' makes the archive over 4 GiB (zip64 is not written)", path, name);
    const uint32_t crc = static_cast<uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
    const uint32_t offset = static_cast<uint32_t>(zip.size());
    // Local header: version 20, no flags, stored, time/date 0 (1980-01-01).
    Put32(&zip, 0x04034b50);
    Put16(&zip, 20);
    Put16(&zip, 0);
    Put16(&zip, 0);
    Put16(&zip, 0);
    Put16(&zip, 0x21);
    Put32(&zip, crc);
    Put32(&zip, static_cast<uint32_t>(bytes.size()));
    Put32(&zip, static_cast<uint32_t>(bytes.size()));
    Put16(&zip, static_cast<uint32_t>(entry.size()));
    Put16(&zip, 0);
    zip += entry;
    zip += bytes;
    Put32(&dir, 0x02014b50);
    Put16(&dir, 20);
    Put16(&dir, 20);
    Put16(&dir, 0);
    Put16(&dir, 0);
    Put16(&dir, 0);
    Put16(&dir, 0x21);
    Put32(&dir, crc);
    Put32(&dir, static_cast<uint32_t>(bytes.size()));
    Put32(&dir, static_cast<uint32_t>(bytes.size()));
    Put16(&dir, static_cast<uint32_t>(entry.size()));
    Put16(&dir, 0);
    Put16(&dir, 0);
    Put16(&dir, 0);
    Put16(&dir, 0);
    Put32(&dir, 0);
    Put32(&dir, offset);
    dir += entry;
  }
  const uint32_t cd_off = static_cast<uint32_t>(zip.size());
  zip += dir;
  Put32(&zip, 0x06054b50);
  Put16(&zip, 0);
  Put16(&zip, 0);
  Put16(&zip, static_cast<uint32_t>(tensors.size()));
  Put16(&zip, static_cast<uint32_t>(tensors.size()));
  Put32(&zip, static_cast<uint32_t>(dir.size()));
  Put32(&zip, cd_off);
  Put16(&zip, 0);
  std::ofstream f(path, std::ios::binary);
  if (!f) return InvalidArgument("{}: cannot write file", path);
  f.write(zip.data(), static_cast<std::streamsize>(zip.size()));
  f.close();
  return f ? Status::Ok() : InvalidArgument("{}: write failed (disk full or I/O error)", path);
}

}  // namespace ge
