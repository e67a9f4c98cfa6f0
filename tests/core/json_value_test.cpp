// The line-numbered JSON reader MSCCL++ plans are read with: values, their
// lines, and a one-line Error naming the line for each malformed input.
#include "core/json_value.h"

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"

namespace photonsim {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_json(text, "p.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(JsonValue, ReadsEveryKindWithItsLine) {
  const JsonValue v = parse_json(
      "{\n  \"a\": [1, -2.5e3, true],\n  \"b\": {\"c\": null},\n  \"d\": \"x\\u00e9\\ud83d\\ude00\\n\"\n}", "p.json");
  ASSERT_EQ(v.kind, JsonValue::Kind::object);
  EXPECT_EQ(v.line, 1);
  const JsonValue* a = v.find("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->line, 2);
  ASSERT_EQ(a->items.size(), 3u);
  EXPECT_EQ(a->items[0].as_int64(), 1);
  EXPECT_EQ(a->items[1].text, "-2.5e3");
  EXPECT_FALSE(a->items[1].as_int64().has_value());  // not an integer as written
  EXPECT_TRUE(a->items[2].boolean);
  EXPECT_EQ(v.find("b")->line, 3);
  EXPECT_EQ(v.find("b")->find("c")->kind, JsonValue::Kind::null);
  EXPECT_EQ(v.find("d")->text, "x\xC3\xA9\xF0\x9F\x98\x80\n");
  EXPECT_EQ(v.find("d")->line, 4);
  EXPECT_EQ(v.find("e"), nullptr);
  // Members keep file order.
  EXPECT_EQ(v.members[0].key, "a");
  EXPECT_EQ(v.members[2].key, "d");
}

TEST(JsonValue, IntegersTakeTheirFullRange) {
  const JsonValue v = parse_json("[18446744073709551615, 18446744073709551616, -9223372036854775808, -1]", "p");
  EXPECT_EQ(v.items[0].as_uint64(), UINT64_MAX);
  EXPECT_FALSE(v.items[0].as_int64().has_value());
  EXPECT_FALSE(v.items[1].as_uint64().has_value());  // past 64 bits
  EXPECT_EQ(v.items[2].as_int64(), INT64_MIN);
  EXPECT_FALSE(v.items[3].as_uint64().has_value());
  EXPECT_EQ(v.items[3].as_int64(), -1);
}

TEST(JsonValue, AByteOrderMarkAndSpacesAreSkipped) {
  EXPECT_EQ(parse_json("\xEF\xBB\xBF \r\n\t{}", "p").kind, JsonValue::Kind::object);
}

struct Malformed {
  const char* name;
  std::string text;
  std::string message;
};

class JsonValueRefuses : public ::testing::TestWithParam<Malformed> {};

TEST_P(JsonValueRefuses, InOneLineNamingTheLine) {
  const std::string e = error_of(GetParam().text);
  EXPECT_NE(e.find(GetParam().message), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
}

std::string nested(int depth) {
  return std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']');
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, JsonValueRefuses,
    ::testing::Values(
        Malformed{"empty", "  \n", "p.json:2: the file holds no JSON value"},
        Malformed{"trailing_comma", "{\n\"a\": 1,\n}", "p.json:3: a trailing comma before '}'"},
        Malformed{"trailing_array_comma", "[1,\n]", "p.json:2: a trailing comma before ']'"},
        Malformed{"repeated_key", "{\"a\": 1,\n \"a\": 2}",
                  "p.json:2: the member 'a' appears twice in the object of line 1"},
        Malformed{"comment", "{\n// no\n}", "p.json:2: comments are not JSON"},
        Malformed{"unquoted_key", "{a: 1}", "p.json:1: expected a member name in double quotes, found 'a'"},
        Malformed{"missing_colon", "{\"a\" 1}", "p.json:1: expected ':' after the member name 'a'"},
        Malformed{"missing_comma", "[1\n 2]", "p.json:2: expected ',' or ']' in the array of line 1, found '2'"},
        Malformed{"unterminated_string", "\n\"abc", "p.json:2: a string that never ends"},
        Malformed{"newline_in_string", "\"a\nb\"", "p.json:1: a control character (byte 10) inside a string"},
        Malformed{"bad_escape", "\"\\x\"", "the escape \\x is not JSON"},
        Malformed{"lone_low_surrogate", "\"\\udc00\"", "a low surrogate without its high surrogate"},
        Malformed{"lone_high_surrogate", "\"\\ud800x\"", "a high surrogate without its low surrogate"},
        Malformed{"short_unicode", "\"\\u12\"", "four hex digits"},
        Malformed{"leading_zero", "01", "a number with a leading zero"},
        Malformed{"bare_minus", "-", "p.json:1: unexpected '-' where a value belongs"},
        Malformed{"fraction_without_digits", "1.", "no digit after its '.'"},
        Malformed{"exponent_without_digits", "1e+", "no digit in its exponent"},
        Malformed{"bad_word", "tru", "unexpected 't' where a value belongs"},
        Malformed{"text_after", "{}\n{}", "p.json:2: unexpected '{' after the JSON value that began on line 1"},
        Malformed{"binary", std::string("[\x01]", 3), "unexpected byte 0x01 where a value belongs"},
        Malformed{"too_deep", nested(kMaxJsonDepth + 1), "values nest deeper than 32 levels"},
        Malformed{"unclosed", "{\"a\": [1, 2",
                  "p.json:1: expected ',' or ']' in the array of line 1, found end of file"}),
    [](const auto& p) { return std::string(p.param.name); });

TEST(JsonValue, NestingUpToTheCapReads) {
  EXPECT_EQ(parse_json(nested(kMaxJsonDepth), "p").kind, JsonValue::Kind::array);
}

}  // namespace
}  // namespace photonsim
