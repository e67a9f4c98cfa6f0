#include "schedules/alltoall/strategy_outline.h"

namespace photonsim {

int64_t StrategyOutline::hop_sum() const {
  int64_t sum = 0;
  for (const RoundOutline& r : rounds) sum += r.hops;
  return sum;
}

}  // namespace photonsim
