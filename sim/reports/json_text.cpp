#include "sim/reports/json_text.h"

namespace photonsim {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not one.
namespace {

size_t utf8_length(const std::string& s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  const size_t n = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  return n;
}

}  // namespace

// A JSON string: quotes, backslashes and control characters escaped; bytes
// that are not UTF-8 (a schedule file's names are arbitrary bytes) become U+FFFD.
std::string json_string(const std::string& s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += s[i++];
    } else if (c == '\n') {
      out += "\\n", ++i;
    } else if (c == '\t') {
      out += "\\t", ++i;
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
      ++i;
    } else if (const size_t n = utf8_length(s, i); n > 0) {
      out.append(s, i, n);
      i += n;
    } else {
      out += "\\ufffd";
      ++i;
    }
  }
  return out + "\"";
}

// A name for the terminal: control characters (escape sequences included)
// shown as '?', so a schedule file cannot move the cursor or recolour the screen.
std::string printable(std::string s) {
  for (char& c : s) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) c = '?';
  }
  return s;
}

}  // namespace photonsim
