// .npy headers a user did not write: a shape that is not integers, a negative dim, a shape whose
// byte size overflows, or more data declared than the file holds are one-line errors, found
// before anything is allocated.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "ge/npy.h"

namespace ge {
namespace {

// A version 1.0 .npy file with `header` (padded as numpy does) and `data_bytes` zero bytes.
std::string WriteNpyFile(const std::string& name, const std::string& header, size_t data_bytes) {
  std::string h = header;
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream f(path, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  const uint16_t len = static_cast<uint16_t>(h.size());
  f.write(reinterpret_cast<const char*>(&len), 2);
  f << h << std::string(data_bytes, '\0');
  return path;
}

std::string ReadError(const std::string& path) {
  HostTensor t;
  Status st = ReadNpy(path, &t);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.message().find('\n'), std::string::npos) << st.message();
  return st.message();
}

std::string Header(const std::string& shape) {
  return "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
}

TEST(Npy, ReadsAValidFile) {
  HostTensor t;
  ASSERT_TRUE(ReadNpy(WriteNpyFile("ok.npy", Header("(2, 3)"), 24), &t).ok());
  EXPECT_EQ(t.shape(), Shape({2, 3}));
  EXPECT_EQ(t.NumBytes(), 24u);
}

TEST(Npy, ShapeThatIsNotIntegers) {
  const std::string p = WriteNpyFile("abc.npy", Header("(abc, 4)"), 0);
  EXPECT_EQ(ReadError(p), p + ": .npy shape has 'abc', not a dimension (an integer >= 0)");
  const std::string q = WriteNpyFile("neg.npy", Header("(-2, 4)"), 0);
  EXPECT_EQ(ReadError(q), q + ": .npy shape has '-2', not a dimension (an integer >= 0)");
}

TEST(Npy, ShapeWhoseByteSizeOverflows) {
  // 4611686018427387905 * 4 bytes wraps to 4 bytes unchecked.
  const std::string p = WriteNpyFile("huge.npy", Header("(4611686018427387905,)"), 4);
  EXPECT_EQ(ReadError(p), p + ": .npy shape [4611686018427387905] is too large (its byte size overflows 64 bits)");
}

TEST(Npy, MoreDataDeclaredThanTheFileHolds) {
  // 2^31 floats declared, one present: an error, not an 8 GiB zero-filled tensor.
  const std::string p = WriteNpyFile("short.npy", Header("(2147483648,)"), 4);
  EXPECT_EQ(ReadError(p), p + ": truncated .npy data (expected 8589934592 bytes for float32 [2147483648])");
}

TEST(Npy, UnsupportedDescrIsPrintable) {
  const std::string p = WriteNpyFile("esc.npy", "{'descr': '\x1b[31mX', 'fortran_order': False, 'shape': (1,), }", 4);
  EXPECT_EQ(ReadError(p), p + ": unsupported .npy dtype '?[31mX'");
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

// `ge run --output /dev/full`: the write error shows when the bytes are flushed, and must not be
// lost (the write was checked before the flush and returned OK).
TEST(Npy, WriteToAFullDeviceFails) {
  HostTensor t(DT_FLOAT, Shape({4}));  // fits the stream buffer: only the flush fails
  Status st = WriteNpy("/dev/full", t);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("write failed"), std::string::npos) << st.message();
}

// The reader from bytes in memory (the fuzz harness's entry): the same checks as from a file.
TEST(Npy, ReadsFromBytes) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
  bytes.push_back(static_cast<char>(header.size()));
  bytes.push_back('\0');
  bytes += header;
  HostTensor t;
  EXPECT_FALSE(ReadNpyBytes(bytes, &t).ok());  // no data
  float v[2] = {1.5f, -2.f};
  bytes.append(reinterpret_cast<const char*>(v), sizeof v);
  ASSERT_TRUE(ReadNpyBytes(bytes, &t).ok());
  EXPECT_EQ(t.NumElements(), 2);
  EXPECT_EQ(t.data_as<float>()[1], -2.f);
}

}  // namespace
}  // namespace ge
