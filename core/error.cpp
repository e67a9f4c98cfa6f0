#include "core/error.h"

namespace photonsim {

namespace {
constexpr size_t kMaxMessage = 1200;

// Whether text[i] is part of a valid UTF-8 sequence (lead or continuation).
bool utf8_at(const std::string& text, size_t i) {
  size_t lead = i;
  while (lead > 0 && i - lead < 3 && (static_cast<unsigned char>(text[lead]) & 0xc0) == 0x80) --lead;
  const auto b = static_cast<unsigned char>(text[lead]);
  const size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xe ? 3 : (b >> 3) == 0x1e ? 4 : 0;
  if (n < 2 || lead + n > text.size() || i >= lead + n) return false;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[lead + k]) & 0xc0) != 0x80) return false;
  }
  return true;
}
}  // namespace

std::string quoted(const std::string& value) {
  if (value.size() <= 80) return "'" + value + "'";
  return "'" + value.substr(0, 77) + "...' (" + std::to_string(value.size()) + " characters)";
}

std::string quoted_path(const std::string& path) {
  if (path.size() <= 240) return "'" + path + "'";
  return "'..." + path.substr(path.size() - 160) + "' (" + std::to_string(path.size()) + " characters)";
}

std::string one_line(const std::string& text) {
  if (text.size() > kMaxMessage) {
    return one_line(text.substr(0, kMaxMessage - 300)) + " [... " + std::to_string(text.size() - kMaxMessage + 100) +
           " characters elided ...] " + one_line(text.substr(text.size() - 200));
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f || (byte >= 0x80 && !utf8_at(text, i))) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace photonsim
