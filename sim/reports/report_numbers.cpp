#include "sim/reports/report_numbers.h"

#include <cstdio>

namespace photonsim {

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

double error_pct(Time measured, Time predicted) {
  if (predicted.picoseconds() == 0) return measured.picoseconds() == 0 ? 0.0 : 100.0;
  return 100.0 * static_cast<double>(measured.picoseconds() - predicted.picoseconds()) /
         static_cast<double>(predicted.picoseconds());
}

}  // namespace photonsim
