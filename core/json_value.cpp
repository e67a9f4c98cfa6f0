#include "core/json_value.h"

#include <charconv>

#include "core/error.h"

namespace photonsim {

const JsonValue* JsonValue::find(std::string_view key) const {
  for (const JsonMember& m : members) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

const JsonValue& JsonValue::at(std::string_view key) const {
  const JsonValue* v = find(key);
  if (!v) throw Error("JSON line " + std::to_string(line) + ": no member " + quoted(std::string(key)));
  return *v;
}

int64_t JsonValue::integer() const {
  const std::optional<int64_t> v = as_int64();
  if (!v)
    throw Error("JSON line " + std::to_string(line) + ": " + (kind == Kind::number ? text : json_kind_name(kind)) +
                " is not a 64-bit integer");
  return *v;
}

namespace {

bool is_integer_text(const std::string& text) {
  return !text.empty() && text.find_first_of(".eE") == std::string::npos;
}

template <typename T>
std::optional<T> integer_of(const JsonValue& v) {
  if (v.kind != JsonValue::Kind::number || !is_integer_text(v.text)) return std::nullopt;
  T out = 0;
  const char* begin = v.text.data();
  const char* end = begin + v.text.size();
  const auto [stop, error] = std::from_chars(begin, end, out);
  if (error != std::errc() || stop != end) return std::nullopt;
  return out;
}

}  // namespace

std::optional<int64_t> JsonValue::as_int64() const { return integer_of<int64_t>(*this); }

std::optional<uint64_t> JsonValue::as_uint64() const {
  if (!text.empty() && text.front() == '-') return std::nullopt;
  return integer_of<uint64_t>(*this);
}

const char* json_kind_name(JsonValue::Kind kind) {
  switch (kind) {
    case JsonValue::Kind::null:
      return "null";
    case JsonValue::Kind::boolean:
      return "a boolean";
    case JsonValue::Kind::number:
      return "a number";
    case JsonValue::Kind::string:
      return "a string";
    case JsonValue::Kind::array:
      return "an array";
    case JsonValue::Kind::object:
      return "an object";
  }
  return "a value";
}

namespace {

class JsonReader {
 public:
  JsonReader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  JsonValue read() {
    if (text_.size() >= 3 && text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte-order mark
    skip_spaces();
    if (at_end()) fail("the file holds no JSON value");
    JsonValue top = value(0);
    skip_spaces();
    if (!at_end())
      fail("unexpected " + describe_here() + " after the JSON value that began on line " + std::to_string(top.line));
    return top;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(source_ + ":" + std::to_string(line_) + ": " + what);
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }

  std::string describe_here() const {
    if (at_end()) return "end of file";
    const unsigned char c = static_cast<unsigned char>(peek());
    if (c < 0x20 || c >= 0x7f)
      return "byte 0x" + std::string(1, "0123456789abcdef"[c >> 4]) + "0123456789abcdef"[c & 15];
    return "'" + std::string(1, static_cast<char>(c)) + "'";
  }

  void skip_spaces() {
    while (!at_end()) {
      const char c = peek();
      if (c == '\n') {
        ++line_;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        if (c == '/') fail("comments are not JSON");
        return;
      }
      ++pos_;
    }
  }

  void expect_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) fail("unexpected " + describe_here() + " where a value belongs");
    pos_ += word.size();
  }

  JsonValue value(int depth) {
    if (depth >= kMaxJsonDepth) fail("values nest deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    JsonValue v;
    v.line = line_;
    if (at_end()) fail("the file ends where a value belongs");
    switch (peek()) {
      case '{':
        read_object(v, depth);
        break;
      case '[':
        read_array(v, depth);
        break;
      case '"':
        v.kind = JsonValue::Kind::string;
        v.text = read_string();
        break;
      case 't':
        expect_word("true");
        v.kind = JsonValue::Kind::boolean;
        v.boolean = true;
        break;
      case 'f':
        expect_word("false");
        v.kind = JsonValue::Kind::boolean;
        break;
      case 'n':
        expect_word("null");
        break;
      default:
        v.kind = JsonValue::Kind::number;
        v.text = read_number();
        break;
    }
    return v;
  }

  void read_object(JsonValue& v, int depth) {
    v.kind = JsonValue::Kind::object;
    ++pos_;
    skip_spaces();
    if (!at_end() && peek() == '}') {
      ++pos_;
      return;
    }
    while (true) {
      skip_spaces();
      if (at_end() || peek() != '"')
        fail("expected a member name in double quotes, found " + describe_here() + " (in the object of line " +
             std::to_string(v.line) + ")");
      const int key_line = line_;
      std::string key = read_string();
      if (v.find(key)) {
        line_ = key_line;
        fail("the member " + quoted(key) + " appears twice in the object of line " + std::to_string(v.line));
      }
      skip_spaces();
      if (at_end() || peek() != ':') fail("expected ':' after the member name " + quoted(key));
      ++pos_;
      skip_spaces();
      JsonValue member = value(depth + 1);
      v.members.push_back(JsonMember{std::move(key), std::move(member)});
      skip_spaces();
      if (!at_end() && peek() == ',') {
        ++pos_;
        skip_spaces();
        if (!at_end() && peek() == '}') fail("a trailing comma before '}'");
        continue;
      }
      if (!at_end() && peek() == '}') {
        ++pos_;
        return;
      }
      fail("expected ',' or '}' in the object of line " + std::to_string(v.line) + ", found " + describe_here());
    }
  }

  void read_array(JsonValue& v, int depth) {
    v.kind = JsonValue::Kind::array;
    ++pos_;
    skip_spaces();
    if (!at_end() && peek() == ']') {
      ++pos_;
      return;
    }
    while (true) {
      skip_spaces();
      v.items.push_back(value(depth + 1));
      skip_spaces();
      if (!at_end() && peek() == ',') {
        ++pos_;
        skip_spaces();
        if (!at_end() && peek() == ']') fail("a trailing comma before ']'");
        continue;
      }
      if (!at_end() && peek() == ']') {
        ++pos_;
        return;
      }
      fail("expected ',' or ']' in the array of line " + std::to_string(v.line) + ", found " + describe_here());
    }
  }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  uint32_t read_hex4() {
    if (pos_ + 4 > text_.size()) fail("a \\u escape needs four hex digits");
    uint32_t out = 0;
    for (int i = 0; i < 4; ++i) {
      const int d = hex_digit(text_[pos_ + static_cast<size_t>(i)]);
      if (d < 0) fail("a \\u escape needs four hex digits");
      out = out * 16 + static_cast<uint32_t>(d);
    }
    pos_ += 4;
    return out;
  }

  static void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string read_string() {
    const int start_line = line_;
    ++pos_;
    std::string out;
    while (true) {
      if (at_end()) {
        line_ = start_line;
        fail("a string that never ends");
      }
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        fail("a control character (byte " + std::to_string(static_cast<int>(c)) + ") inside a string");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_end()) fail("a string that ends in a backslash");
      const char e = text_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t cp = read_hex4();
          if (cp >= 0xD800 && cp < 0xDC00) {
            if (text_.substr(pos_, 2) != "\\u") fail("a \\u escape of a high surrogate without its low surrogate");
            pos_ += 2;
            const uint32_t low = read_hex4();
            if (low < 0xDC00 || low >= 0xE000) fail("a \\u escape of a high surrogate without its low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            fail("a \\u escape of a low surrogate without its high surrogate");
          }
          append_utf8(out, cp);
          break;
        }
        default:
          fail("the escape \\" + std::string(1, e) + " is not JSON (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
      }
    }
  }

  std::string read_number() {
    const size_t begin = pos_;
    const auto digits = [&]() {
      const size_t from = pos_;
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
      return pos_ - from;
    };
    if (!at_end() && peek() == '-') ++pos_;
    if (at_end() || peek() < '0' || peek() > '9') {
      pos_ = begin;
      fail("unexpected " + describe_here() + " where a value belongs");
    }
    if (peek() == '0') {
      ++pos_;
      if (!at_end() && peek() >= '0' && peek() <= '9') fail("a number with a leading zero");
    } else {
      digits();
    }
    if (!at_end() && peek() == '.') {
      ++pos_;
      if (digits() == 0) fail("a number with no digit after its '.'");
    }
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      ++pos_;
      if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
      if (digits() == 0) fail("a number with no digit in its exponent");
    }
    return std::string(text_.substr(begin, pos_ - begin));
  }

  std::string_view text_;
  const std::string& source_;
  size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

JsonValue parse_json(std::string_view text, const std::string& source) { return JsonReader(text, source).read(); }

}  // namespace photonsim
