#pragma once
// Contract: every user-facing failure is an Error carrying a one-line message
// that names the offending key, node or file (and file:line for YAML). The CLI
// prints it and exits non-zero; nothing below the CLI prints or exits.
#include <stdexcept>
#include <string>
#include <utility>

namespace photonsim {

// Control characters (a newline inside a quoted YAML key, say) are written as
// escapes, so every message is one line whatever text it quotes.
// Messages longer than kMaxMessage characters keep their head and tail.
std::string one_line(const std::string& text);

// `value` in single quotes for a message, cut to 80 characters with its full
// length noted, so a 10 MB value is never echoed whole.
std::string quoted(const std::string& value);
// For a non-const string, which would otherwise pick std::quoted (an exact
// match found by argument-dependent lookup) wherever <iomanip> is visible, as
// it is in a unity batch whose other files include it.
inline std::string quoted(std::string& value) { return quoted(std::as_const(value)); }

// A file path in single quotes; past 240 characters its tail (where the
// file's name is) with its full length noted.
std::string quoted_path(const std::string& path);

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(one_line(message)) {}
};

// A value that failed unit parsing; the config loader adds the key and line.
class UnitError : public Error {
 public:
  using Error::Error;
};

}  // namespace photonsim
