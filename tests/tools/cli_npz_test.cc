// `ge run --inputs FILE.npz / --outputs FILE.npz` and string tensors ('<U' and '|S' arrays),
// checked against numpy by scripts/check_npz.py (np.savez, np.savez_compressed, np.load), the
// ONNX backend's string Cast cases through the command line, and the error messages for missing,
// truncated, corrupt and mismatched files.
#include <gtest/gtest.h>

#include "cli_util.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

std::string Sh(const std::string& cmd, int* code) { return ge::testing::Shell(cmd, code); }

TEST(CliNpz, AgainstNumpy) {
  const std::string scripts = std::string(GE_SOURCE_DIR) + "/tests/tools/scripts/";
  const std::string dir = std::string(GE_BINARY_DIR) + "/tools_npz_test_" + std::to_string(getpid());
  int code = -1;
  std::string out = Sh("mkdir -p " + dir + " && /usr/bin/python3 " + scripts + "make_test_models.py " + dir, &code);
  ASSERT_EQ(code, 0) << out;
  out = Sh("/usr/bin/python3 " + scripts + "check_npz.py " + std::string(GE_BINARY_DIR) + "/bin/ge " +
               std::string(GE_SOURCE_DIR) + "/models " + dir,
           &code);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("ok"), std::string::npos) << out;
  std::system(("rm -rf " + dir).c_str());
}

}  // namespace
