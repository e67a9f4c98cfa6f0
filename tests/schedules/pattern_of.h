#pragma once
// Test helper: an algorithm's pattern, its parameters validated against (and
// defaulted from) its own declaration.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

template <class Algorithm>
StepPattern pattern_of(const Algorithm& algorithm, const FabricSpec& fabric, const WorkloadSpec& workload,
                       std::map<std::string, std::string> values = {}) {
  const ComponentParams params("test", std::move(values), algorithm.info().parameters, "algorithm");
  return algorithm.pattern(AlgorithmInput{fabric, workload, params});
}

}  // namespace photonsim
