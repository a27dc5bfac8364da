// .npz archives and string .npy files: round trips (WriteNpz -> ReadNpz, strings through '<U'),
// numpy's fixed-width string layouts, and mutated archives (truncations, bit flips, edited sizes
// and offsets) that must give clean errors, never a crash or an out-of-bounds read.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "ge/npy.h"

namespace ge {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void Spit(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::pair<std::string, HostTensor>> Sample() {
  HostTensor a(DT_FLOAT, Shape({2, 3}));
  for (int i = 0; i < 6; ++i) a.mutable_data_as<float>()[i] = static_cast<float>(i) * 0.5f;
  HostTensor s(DT_STRING, Shape({3}));
  EXPECT_TRUE(s.SetString(0, "hello"));
  EXPECT_TRUE(s.SetString(1, ""));
  EXPECT_TRUE(s.SetString(2, "\xc3\x84\xc3\x9f \xe6\x97\xa5"));  // UTF-8 "Äß 日"
  HostTensor i(DT_INT64, Shape());
  i.mutable_data_as<int64_t>()[0] = -7;
  return {{"a", a}, {"s", s}, {"dir/i", i}};
}

TEST(Npz, RoundTrip) {
  const std::string path = ::testing::TempDir() + "/rt.npz";
  ASSERT_TRUE(WriteNpz(path, Sample()).ok());
  std::vector<std::pair<std::string, HostTensor>> got;
  Status st = ReadNpz(path, &got);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].first, "a");
  EXPECT_EQ(got[0].second.ToDoubleVector(), Sample()[0].second.ToDoubleVector());
  EXPECT_EQ(got[1].first, "s");
  EXPECT_EQ(got[1].second.dtype(), DT_STRING);
  EXPECT_EQ(got[1].second.strings(), Sample()[1].second.strings());
  EXPECT_EQ(got[2].first, "dir/i");
  EXPECT_EQ(got[2].second.ToInt64Vector(), std::vector<int64_t>{-7});
}

TEST(Npz, StringNpyLayouts) {
  // '<U3': 3 UTF-32 code units a slot; '|S2': 2 bytes a slot; NUL padding is not part of a string.
  auto npy = [](const std::string& descr, const std::string& shape, const std::string& data) {
    std::string h = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    while ((10 + h.size() + 1) % 64 != 0) h += ' ';
    h += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    const uint16_t len = static_cast<uint16_t>(h.size());
    out.append(reinterpret_cast<const char*>(&len), 2);
    return out + h + data;
  };
  std::string u;
  for (char32_t c : std::u32string(U"ab\0\u00e9\0\0", 6)) u.append(reinterpret_cast<const char*>(&c), 4);
  HostTensor t;
  ASSERT_TRUE(ReadNpyBytes(npy("<U3", "(2,)", u), &t).ok());
  EXPECT_EQ(t.strings(), (std::vector<std::string>{"ab", "\xc3\xa9"}));
  ASSERT_TRUE(ReadNpyBytes(npy("|S2", "(3,)",
                               std::string("xy"
                                           "z\0"
                                           "\0\0",
                                           6)),
                           &t)
                  .ok());
  EXPECT_EQ(t.strings(), (std::vector<std::string>{"xy", "z", ""}));
  Status st = ReadNpyBytes(npy("|O", "(1,)", "x"), &t);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("object arrays"), std::string::npos) << st.message();
  st = ReadNpyBytes(npy("<U0", "(100000000000,)", ""), &t);
  EXPECT_FALSE(st.ok());
  std::string seventy;
  for (int k = 0; k < 70; ++k) seventy.append("a\0\0\0", 4);
  st = ReadNpyBytes(npy("<U70", "(1,)", seventy), &t);  // 70 characters: over a slot
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("at most 63"), std::string::npos) << st.message();
}

TEST(Npz, MutatedArchivesAreCleanErrors) {
  const std::string good_path = ::testing::TempDir() + "/good.npz";
  ASSERT_TRUE(WriteNpz(good_path, Sample()).ok());
  const std::string good = Slurp(good_path);
  const std::string path = ::testing::TempDir() + "/mutated.npz";
  std::mt19937 rng(12345);
  int rejected = 0;
  for (int k = 0; k < 1500; ++k) {
    std::string bytes = good;
    switch (k % 4) {
      case 0: bytes.resize(rng() % bytes.size()); break;  // truncation
      case 1: bytes[rng() % bytes.size()] ^= static_cast<char>(1 << (rng() % 8)); break;
      case 2: {  // a 32-bit field anywhere (sizes, offsets) set to an edge value
        const uint32_t v[] = {0, 1, 0x7FFFFFFF, 0xFFFFFFFF, static_cast<uint32_t>(bytes.size())};
        const size_t at = rng() % (bytes.size() - 4);
        std::memcpy(&bytes[at], &v[rng() % 5], 4);
        break;
      }
      default:
        for (int j = 0; j < 8; ++j) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    }
    Spit(path, bytes);
    std::vector<std::pair<std::string, HostTensor>> got;
    Status st = ReadNpz(path, &got);
    if (!st.ok()) {
      ++rejected;
      EXPECT_EQ(st.message().find('\n'), std::string::npos) << st.message();
    }
  }
  EXPECT_GT(rejected, 1000);  // most mutations are caught (CRC, sizes, signatures)
}

}  // namespace
}  // namespace ge
