#include "schedules/alltoall/joint_synthesizer.h"

namespace photonsim {

bool JointInput::uniform() const {
  const auto n = static_cast<Node>(gpus());
  const Bytes first = demand_at(0, 1);
  for (Node s = 0; s < n; ++s) {
    for (Node t = 0; t < n; ++t) {
      if (s != t && demand_at(s, t) != first) return false;
    }
  }
  return true;
}

}  // namespace photonsim
