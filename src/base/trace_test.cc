// The profiler (base/trace.h): off records nothing; on, events land on their tracks and the file
// is valid trace-event JSON with named tracks and escaped strings.
#include "base/trace.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

namespace ge {
namespace {

nlohmann::json Load(const std::string& path) {
  std::ifstream f(path);
  return nlohmann::json::parse(f);
}

TEST(Trace, OffRecordsNothing) {
  trace::Stop();
  EXPECT_FALSE(trace::Enabled());
  { trace::Step s("not recorded"); }
  trace::Record(trace::kCoreTrack, "nor this", trace::Clock::now(), trace::Clock::now());
  trace::Start();
  const std::string path = ::testing::TempDir() + "/off.json";
  std::string error;
  ASSERT_TRUE(trace::StopAndWrite(path, &error)) << error;
  int x_events = 0;
  const auto doc = Load(path);  // a range-for over a temporary's member would outlive it
  for (const auto& e : doc["traceEvents"]) x_events += e["ph"] == "X";
  EXPECT_EQ(x_events, 0);
}

TEST(Trace, TracksNestingAndEscaping) {
  trace::Start();
  {
    trace::Step outer("outer \"quoted\"\n");
    trace::Scope inner("inner", [] { return std::string("{\"node\":") + trace::Quote("a\\b\t") + "}"; });
  }
  std::thread([] { trace::Step other("other thread"); }).join();
  trace::Record(trace::kCoreTrack, "caf\xc3\xa9 \xff\x80", trace::Clock::now(), trace::Clock::now());
  trace::Record(trace::kStreamTrack + 1, "task", trace::Clock::now(), trace::Clock::now(), "{\"op\":\"Conv\"}");
  const std::string path = ::testing::TempDir() + "/on.json";
  std::string error;
  ASSERT_TRUE(trace::StopAndWrite(path, &error)) << error;
  EXPECT_FALSE(trace::Enabled());
  const auto doc = Load(path);
  std::map<int, std::string> names;
  std::map<std::string, nlohmann::json> events;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") names[e["tid"].get<int>()] = e["args"]["name"];
    if (e["ph"] == "X") events[e["name"].get<std::string>()] = e;
  }
  ASSERT_TRUE(events.count("outer \"quoted\"\n"));
  ASSERT_TRUE(events.count("inner"));
  EXPECT_EQ(events["inner"]["args"]["node"], "a\\b\t");
  const auto& outer = events["outer \"quoted\"\n"];
  const auto& inner = events["inner"];
  EXPECT_EQ(outer["tid"], inner["tid"]);
  EXPECT_EQ(names[outer["tid"].get<int>()], "host");
  EXPECT_GE(inner["ts"].get<double>(), outer["ts"].get<double>());
  EXPECT_LE(inner["ts"].get<double>() + inner["dur"].get<double>(),
            outer["ts"].get<double>() + outer["dur"].get<double>() + 0.001);
  EXPECT_EQ(names[events["other thread"]["tid"].get<int>()], "host thread 1");
  EXPECT_EQ(names[events["task"]["tid"].get<int>()], "stream 1");
  EXPECT_EQ(events["task"]["args"]["op"], "Conv");
  EXPECT_TRUE(events.count("caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd"));  // stray bytes as U+FFFD
  EXPECT_FALSE(trace::StopAndWrite("/nonexistent/dir/t.json", &error));
  EXPECT_NE(error.find("cannot write"), std::string::npos);
}

}  // namespace
}  // namespace ge
