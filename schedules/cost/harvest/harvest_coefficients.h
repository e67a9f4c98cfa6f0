#pragma once
// Contract: Harvest's cost coefficients (its Eq. 3/4) in photonsim's units,
// as MODELS.md maps them: alpha = fabric.step_overhead, delta =
// fabric.latency, beta = 1 / fabric.bandwidth, alpha_r =
// fabric.reconfig_delay. Costs are doubles in picoseconds so that the
// planner's sums of fractional transmission times (beta * m / theta) do not
// round at every step; predictions round once per term.
#include "core/spec/fabric_spec.h"

namespace photonsim {

struct HarvestCoefficients {
  double alpha_ps = 0.0;          // per-step start-up
  double delta_ps = 0.0;          // per-hop propagation
  double beta_ps_per_byte = 0.0;  // 1 / per-circuit line rate
  double alpha_r_ps = 0.0;        // per reconfiguration

  static HarvestCoefficients of(const FabricSpec& fabric) {
    HarvestCoefficients c;
    c.alpha_ps = static_cast<double>(fabric.step_overhead.picoseconds());
    c.delta_ps = static_cast<double>(fabric.latency.picoseconds());
    c.beta_ps_per_byte = 8e12 / static_cast<double>(fabric.bandwidth.bps());
    c.alpha_r_ps = static_cast<double>(fabric.reconfig_delay.picoseconds());
    return c;
  }
};

}  // namespace photonsim
