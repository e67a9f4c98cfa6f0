#pragma once
// Contract: a synthesizer's own estimate of a schedule's time, per step, with
// the same breakdown the simulator measures. `model` names the cost model.
#include <string>
#include <vector>

#include "core/time.h"

namespace photonsim {

struct StepPrediction {
  Time reconfiguration;  // dark time before the step (alpha_r), 0 if none
  Time startup;          // per-step overhead alpha
  Time propagation;      // latency x hops on the critical path
  Time transmission;     // serialisation, including congestion and pipeline fill
  Time total() const { return reconfiguration + startup + propagation + transmission; }
};

struct Prediction {
  std::string model;
  std::vector<StepPrediction> steps;
  Time total() const {
    Time t;
    for (const auto& s : steps) t += s.total();
    return t;
  }
};

}  // namespace photonsim
