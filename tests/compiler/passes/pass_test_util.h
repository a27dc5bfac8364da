// Helpers for the textual before/after pass tests: parse the text, run a pass by name (or static
// inference), print the result. Only the public API: ge/graph_text.h and ge/graph_passes.h.
#ifndef GE_TESTS_COMPILER_PASSES_PASS_TEST_UTIL_H_
#define GE_TESTS_COMPILER_PASSES_PASS_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "ge/graph_passes.h"
#include "ge/graph_text.h"

namespace ge::test {

inline std::shared_ptr<Graph> Parse(const std::string& text) {
  std::shared_ptr<Graph> g;
  Status st = ParseGraphText(text, &g);
  EXPECT_TRUE(st.ok()) << st.message();
  return g;
}

// Runs the named pass once on the parsed text; returns the printed result. *changed (if given)
// says whether the pass rewrote anything; the result must verify.
inline std::string RunPass(const std::string& pass, const std::string& text, bool* changed = nullptr) {
  auto g = Parse(text);
  if (!g) return "";
  bool c = false;
  Status st = RunGraphPass(pass, g.get(), &c);
  EXPECT_TRUE(st.ok()) << st.message();
  st = g->Verify();
  EXPECT_TRUE(st.ok()) << st.message();
  if (changed) *changed = c;
  return GraphToText(*g);
}

// The pass leaves the text as it is and says it changed nothing (a must-not-fire case).
inline void ExpectUnchanged(const std::string& pass, const std::string& text) {
  bool changed = true;
  EXPECT_EQ(RunPass(pass, text, &changed), text);
  EXPECT_FALSE(changed);
}

// text with its first `from` replaced by `to` (which must occur in it).
inline std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// Static inference on the parsed text; returns the printed result.
inline std::string Infer(const std::string& text, const StaticInferenceOptions& opt,
                         StaticInferenceStats* stats = nullptr) {
  auto g = Parse(text);
  if (!g) return "";
  Status st = RunStaticInference(g.get(), opt, stats);
  EXPECT_TRUE(st.ok()) << st.message();
  return GraphToText(*g);
}

}  // namespace ge::test

#endif  // GE_TESTS_COMPILER_PASSES_PASS_TEST_UTIL_H_
