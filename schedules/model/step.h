#pragma once
// Contract: the transfers that run between two barriers, on one topology
// (an index into the schedule's topologies).
#include <vector>

#include "schedules/model/transfer.h"

namespace photonsim {

struct Step {
  int topology = 0;
  std::vector<Transfer> transfers;
};

}  // namespace photonsim
