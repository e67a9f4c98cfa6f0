#include "core/time.h"

#include <cmath>
#include <string>

#include "core/time_overflow.h"

namespace photonsim {

void throw_time_overflow(const char* operation, int64_t a, int64_t b) {
  throw TimeOverflow(std::to_string(a) + " ps " + operation + " " + std::to_string(b) +
                     (*operation == '*' ? "" : " ps"));
}

Time Time::from_picoseconds(double ps) {
  // 2^63 is exactly representable; every double below it converts without overflow.
  if (!std::isfinite(ps) || ps >= 9223372036854775808.0 || ps < -9223372036854775808.0) {
    throw TimeOverflow(std::isfinite(ps) ? std::to_string(ps) + " ps" : std::string("a non-finite time"));
  }
  return Time(std::llround(ps));
}

}  // namespace photonsim
