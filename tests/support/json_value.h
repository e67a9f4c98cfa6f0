#pragma once
// Contract (tests): JSON as the tests read what photonsim writes, with the
// project's own strict reader (core/json_value.h): numbers keep their text
// as written, so a test compares "1.234567" exactly; parse_json throws
// photonsim::Error (a std::runtime_error) naming the line of the first
// error, trailing text included.
#include <string>

#include "core/json_value.h"

namespace photonsim::testing_support {

using JsonValue = photonsim::JsonValue;

inline JsonValue parse_json(const std::string& text) { return photonsim::parse_json(text, "JSON"); }

}  // namespace photonsim::testing_support
