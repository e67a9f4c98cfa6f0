#pragma once
// Contract: how run and graph reports write their numbers: fixed decimals
// ("%.*f"), and the error of a measured time against a predicted one in per
// cent (100 when only the prediction is 0, 0 when both are).
#include <string>

#include "core/time.h"

namespace photonsim {

std::string fixed(double value, int decimals);
double error_pct(Time measured, Time predicted);

}  // namespace photonsim
