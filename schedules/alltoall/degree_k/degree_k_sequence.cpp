#include "schedules/alltoall/degree_k/degree_k_sequence.h"

#include <string>

#include "core/error.h"
#include "schedules/alltoall/degree_k/degree_k_circulant_sequence.h"
#include "schedules/alltoall/degree_k/degree_k_kautz_sequence.h"

namespace photonsim {

std::vector<AlltoallStrategy> degree_k_strategies(int gpus, int ports, DegreeKBase base, uint64_t tie_seed,
                                                  std::optional<int> only) {
  if (gpus < 2) throw Error("degree-k strategies need at least 2 GPUs, got " + std::to_string(gpus));
  if (ports < 1) throw Error("degree-k strategies need at least 1 port, got " + std::to_string(ports));
  switch (base) {
    case DegreeKBase::circulant:
      return circulant_sequence(gpus, ports, tie_seed, only);
    case DegreeKBase::genkautz:
      return kautz_sequence(gpus, ports, tie_seed, only);
  }
  throw Error("degree-k strategies: unknown base");
}

}  // namespace photonsim
