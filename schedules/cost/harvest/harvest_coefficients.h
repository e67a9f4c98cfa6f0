#pragma once
// Contract: Harvest's cost coefficients (its Eq. 3/4) in photonsim's units,
// as MODELS.md maps them: alpha = fabric.step_overhead, delta =
// fabric.latency, beta = 1 / fabric.bandwidth, alpha_r =
// fabric.reconfig_delay. Costs are doubles in picoseconds so that the
// planner's sums of fractional transmission times (beta * m / theta) do not
// round at every step; predictions round once per term.
//
// Two step costs (the planner's `cost` parameter):
//   paper       Eq. 3 as printed: alpha + delta * l + beta * m / theta.
//               Propagation adds to transmission, as if every hop waited
//               for the whole step's data.
//   overlapped  what a fabric that forwards before a transfer has fully
//               arrived does (cut-through, or store-and-forward of packets
//               smaller than the transfer): the two lower bounds of
//               photonsim's alpha_beta_congestion model, in Harvest's terms,
//                 alpha + max( delta + beta * m / theta,
//                              delta * l + beta * (l - 1) * f + beta * s )
//               with s = min(the largest transfer, m / theta) and f the
//               forwarding unit of that transfer (the header under
//               cut-through, the largest packet under store-and-forward).
//               Both terms only grow with m / theta and l, so Harvest's
//               lower bounds and its range argmin stay valid.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/segmentation.h"
#include "core/spec/fabric_spec.h"
#include "core/spec/workload_spec.h"

namespace photonsim {

enum class HarvestCost { overlapped, paper };

// The prediction model each cost reports ("harvest" and "harvest_eq8" are
// the paper's; the overlapped cost has one name for the DP and the closed form).
inline const char* harvest_model_name(HarvestCost cost, bool closed_form) {
  if (cost == HarvestCost::overlapped) return "harvest_overlapped";
  return closed_form ? "harvest_eq8" : "harvest";
}

struct HarvestCoefficients {
  double alpha_ps = 0.0;          // per-step start-up
  double delta_ps = 0.0;          // per-hop propagation
  double beta_ps_per_byte = 0.0;  // 1 / per-circuit line rate
  double alpha_r_ps = 0.0;        // per reconfiguration
  HarvestCost cost = HarvestCost::paper;
  bool store_and_forward = false;
  int64_t header_bytes = 0;
  Segmentation segmentation{Bytes(0), Bytes(0)};

  // The paper's Eq. 3/4.
  static HarvestCoefficients of(const FabricSpec& fabric) {
    if (fabric.bandwidth_scope != BandwidthScope::circuit) {
      throw Error("Harvest's cost models (planner harvest, models harvest*) take one beta for every circuit; "
                  "fabric.bandwidth_scope: gpu gives circuits rates that depend on the topology: use "
                  "bandwidth_scope: circuit with them");
    }
    HarvestCoefficients c;
    c.alpha_ps = static_cast<double>(fabric.step_overhead.picoseconds());
    c.delta_ps = static_cast<double>(fabric.latency.picoseconds());
    c.beta_ps_per_byte = 8e12 / static_cast<double>(fabric.bandwidth.bps());
    c.alpha_r_ps = static_cast<double>(fabric.reconfig_delay.picoseconds());
    return c;
  }
  static HarvestCoefficients of(const FabricSpec& fabric, const WorkloadSpec& workload, HarvestCost cost) {
    HarvestCoefficients c = of(fabric);
    c.cost = cost;
    c.store_and_forward = fabric.router == RouterMode::store_and_forward;
    c.header_bytes = fabric.header.count();
    c.segmentation = Segmentation(workload.chunk, fabric.packet);
    return c;
  }

  // A step's time apart from alpha, split as StepPrediction reports it.
  struct Terms {
    double propagation_ps = 0.0;
    double transmission_ps = 0.0;
  };
  // busiest = unit_bytes * inverse_theta (the busiest circuit's bytes in the
  // fluid model, beta * m / theta), hops = l, largest_transfer_bytes = the
  // step's largest per-pair volume.
  Terms terms(double unit_bytes, double inverse_theta, int hops, double largest_transfer_bytes) const {
    const double busiest_ps = beta_ps_per_byte * unit_bytes * inverse_theta;
    if (cost == HarvestCost::paper || hops <= 0) return {delta_ps * hops, busiest_ps};
    const double alone_ps = beta_ps_per_byte * std::min(largest_transfer_bytes, unit_bytes * inverse_theta);
    const double fill_ps =
        beta_ps_per_byte * static_cast<double>(hops - 1) * static_cast<double>(forwarding_unit(largest_transfer_bytes));
    if (delta_ps + busiest_ps >= delta_ps * hops + fill_ps + alone_ps) return {delta_ps, busiest_ps};
    return {delta_ps * hops, fill_ps + alone_ps};
  }
  // alpha + the terms, in picoseconds. For `paper` the additions are Eq. 3's,
  // in its order.
  double step_ps(double unit_bytes, double inverse_theta, int hops, double largest_transfer_bytes) const {
    if (cost == HarvestCost::paper) return alpha_ps + delta_ps * hops + beta_ps_per_byte * unit_bytes * inverse_theta;
    const Terms t = terms(unit_bytes, inverse_theta, hops, largest_transfer_bytes);
    return alpha_ps + t.propagation_ps + t.transmission_ps;
  }

 private:
  int64_t forwarding_unit(double transfer_bytes) const {
    const int64_t packet = segmentation.largest_packet(Bytes(std::llround(transfer_bytes))).count();
    return store_and_forward ? packet : std::min(packet, header_bytes);
  }
};

}  // namespace photonsim
