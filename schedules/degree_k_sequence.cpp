#include "schedules/degree_k_sequence.h"

#include "core/error.h"

namespace photonsim {

std::vector<AlltoallStrategy> degree_k_strategies(int, int ports, DegreeKBase, uint64_t, std::optional<int>) {
  throw Error("algorithm 'rdc' with fabric.ports = " + std::to_string(ports) + " is not built yet (k = 1 only)");
}

}  // namespace photonsim
