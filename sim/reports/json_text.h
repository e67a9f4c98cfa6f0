#pragma once
// Contract: text from outside (schedule files, configs) made safe for each
// output. json_string: a quoted JSON string, control characters escaped and
// bytes that are not UTF-8 replaced by U+FFFD. printable: the same text for
// the terminal, every control character (escape sequences too) shown as '?'.
#include <string>

namespace photonsim {

std::string json_string(const std::string& s);
std::string printable(std::string s);

}  // namespace photonsim
