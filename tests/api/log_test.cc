// ge/log.h: the level and the applications' log callbacks. The message comes from a public call
// that warns (an OpDef naming an unknown SoC).
#include "ge/log.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "register/op_def.h"

namespace ge {
namespace {

void WarnOnce() {
  ops::OpAICoreDef core;
  core.AddConfig("ascend9l0b");  // not a SoC name: warns
}

TEST(LogTest, CallbacksGetMessagesAtOrAboveTheLevel) {
  const LogLevel saved = GetLogLevel();
  std::vector<std::pair<LogLevel, std::string>> got;
  const int id = AddLogCallback([&](LogLevel l, const std::string& m) { got.emplace_back(l, m); });
  ASSERT_GT(id, 0);

  SetLogLevel(LogLevel::kError);
  EXPECT_EQ(GetLogLevel(), LogLevel::kError);
  WarnOnce();
  EXPECT_TRUE(got.empty());  // below the level

  SetLogLevel(LogLevel::kWarn);
  WarnOnce();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, LogLevel::kWarn);
  EXPECT_NE(got[0].second.find("AddConfig(\"ascend9l0b\"): unknown SoC name"), std::string::npos) << got[0].second;
  EXPECT_EQ(got[0].second.find("[ge]"), std::string::npos) << "the text only, no prefix: " << got[0].second;

  RemoveLogCallback(id);
  WarnOnce();
  EXPECT_EQ(got.size(), 1u);  // removed
  SetLogLevel(saved);
}

TEST(LogTest, EachCallbackHasItsOwnId) {
  int a_calls = 0, b_calls = 0;
  const int a = AddLogCallback([&](LogLevel, const std::string&) { ++a_calls; });
  const int b = AddLogCallback([&](LogLevel, const std::string&) { ++b_calls; });
  EXPECT_NE(a, b);
  const LogLevel saved = GetLogLevel();
  SetLogLevel(LogLevel::kWarn);
  WarnOnce();
  RemoveLogCallback(a);
  WarnOnce();
  RemoveLogCallback(b);
  SetLogLevel(saved);
  EXPECT_EQ(a_calls, 1);
  EXPECT_EQ(b_calls, 2);
}

}  // namespace
}  // namespace ge
