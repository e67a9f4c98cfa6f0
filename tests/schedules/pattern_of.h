#pragma once
// Test helper: an algorithm's pattern with default (empty) parameters.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

template <class Algorithm>
StepPattern pattern_of(const Algorithm& algorithm, const FabricSpec& fabric, const WorkloadSpec& workload,
                       std::map<std::string, std::string> values = {},
                       const std::vector<std::string>& allowed = {}) {
  const ComponentParams params("test", std::move(values), allowed, "algorithm");
  return algorithm.pattern(AlgorithmInput{fabric, workload, params});
}

}  // namespace photonsim
