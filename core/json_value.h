#pragma once
// Contract: JSON (RFC 8259) read without a library so every value knows its
// line and every error names one: "SOURCE:LINE: ..." (MSCCL++ plans; the
// tests' checks of what photonsim writes). Objects keep their
// members in file order and refuse a repeated key; numbers keep their text
// (the reader decides what range it takes); strings are decoded to UTF-8
// (escapes, \u surrogate pairs). Nesting deeper than kMaxJsonDepth, a
// trailing comma, a comment, a control character in a string or anything
// after the top value is an Error. Recursion is bounded by the depth cap, so
// hostile input cannot exhaust the stack.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace photonsim {

inline constexpr int kMaxJsonDepth = 32;

struct JsonMember;

struct JsonValue {
  enum class Kind { null, boolean, number, string, array, object };

  Kind kind = Kind::null;
  int line = 0;
  bool boolean = false;
  std::string text;  // a string's value, or a number as written
  std::vector<JsonValue> items;
  std::vector<JsonMember> members;  // in file order

  bool is(Kind k) const { return kind == k; }
  // The member's value, or nullptr when absent (or this is no object).
  const JsonValue* find(std::string_view key) const;
  // The member's value; an Error naming the key when absent.
  const JsonValue& at(std::string_view key) const;
  // A number that is an integer (no fraction, no exponent) and fits.
  std::optional<int64_t> as_int64() const;
  std::optional<uint64_t> as_uint64() const;
  // as_int64(), or an Error saying what the value is.
  int64_t integer() const;
  bool is_integer() const { return as_int64().has_value(); }
};

struct JsonMember {
  std::string key;
  JsonValue value;
};

// "an object", "a string", ...: for messages.
const char* json_kind_name(JsonValue::Kind kind);

JsonValue parse_json(std::string_view text, const std::string& source);

}  // namespace photonsim
