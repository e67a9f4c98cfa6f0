// The test-support JSON parser and trace validator catch what they claim to,
// so a passing trace test means something.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tests/support/json_value.h"
#include "tests/support/trace_checks.h"

namespace photonsim::testing_support {
namespace {

TEST(JsonValue, ParsesStrictJsonAndKeepsNumbersAsWritten) {
  const JsonValue v = parse_json(R"( {"a": [1.250, -2e3, true, null], "s": "q\"\\\u00e9\ud83d\ude00"} )");
  ASSERT_EQ(v.at("a").items.size(), 4u);
  EXPECT_EQ(v.at("a").items[0].text, "1.250");
  EXPECT_FALSE(v.at("a").items[1].is_integer());
  EXPECT_TRUE(v.at("a").items[2].boolean);
  EXPECT_EQ(v.at("s").text, "q\"\\\xc3\xa9\xf0\x9f\x98\x80");
  for (const char* bad : {"{", "[1,]", "{\"a\" 1}", "01", "\"\x01\"", "1 2", "{\"a\": 1,}", "\"\\ud800\""}) {
    EXPECT_THROW(parse_json(bad), std::runtime_error) << bad;
  }
}

TEST(TraceChecks, FindsEveryKindOfProblem) {
  const auto problems = [](const std::string& events, const std::string& tail = R"(, "otherData": {})") {
    return validate_trace(parse_json(R"({"traceEvents": [)" + events + "]" + tail + "}"));
  };
  const std::string ok = R"({"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 2},
                            {"name": "b", "ph": "X", "pid": 1, "tid": 1, "ts": 0.5, "dur": 1},
                            {"name": "c", "ph": "X", "pid": 1, "tid": 1, "ts": 2, "dur": 0},
                            {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "t"}})";
  EXPECT_TRUE(problems(ok).empty());
  EXPECT_EQ(problems(ok, "").size(), 1u);  // no otherData
  EXPECT_EQ(problems(ok + R"(, {"name": "d", "ph": "X", "pid": 1, "tid": 1, "ts": 1, "dur": 2})").size(), 1u);
  EXPECT_TRUE(problems(ok + R"(, {"name": "d", "ph": "X", "pid": 1, "tid": 2, "ts": 1, "dur": 2})").empty());
  EXPECT_EQ(problems(R"({"name": "a", "ph": "B", "pid": 1, "tid": 1, "ts": 0})").size(), 1u);
  EXPECT_EQ(problems(R"({"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": -1, "dur": 0})").size(), 1u);
  // Perfetto keeps nanoseconds: a finer ts or dur is refused, as is a displayTimeUnit.
  EXPECT_EQ(problems(R"({"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0.0015, "dur": 0})").size(), 1u);
  EXPECT_EQ(problems(R"({"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 0.000001})").size(), 1u);
  EXPECT_TRUE(problems(R"({"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0.001, "dur": 2.5})").empty());
  EXPECT_EQ(problems(ok, R"(, "otherData": {}, "displayTimeUnit": "ns")").size(), 1u);
  EXPECT_EQ(problems(ok + R"(, {"name": "d", "ph": "X", "pid": 2, "tid": 1, "ts": 5, "dur": 1})").size(), 1u);
  EXPECT_EQ(problems(R"({"name": "a", "ph": "X", "pid": "1", "tid": 1, "ts": 0, "dur": 0})").size(), 1u);
  EXPECT_EQ(problems(R"({"ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 0})").size(), 1u);
  EXPECT_EQ(problems(R"({"name": "process_name", "ph": "M", "pid": 1, "tid": 1, "args": {}})").size(), 1u);
  EXPECT_EQ(problems(R"({"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0.0000001, "dur": 0})").size(), 1u);
}

}  // namespace
}  // namespace photonsim::testing_support
