#include "schedules/cost/alpha_beta_congestion_model.h"

#include <algorithm>

#include "core/segmentation.h"
#include "schedules/model/step_routes.h"

namespace photonsim {

StepPrediction predict_alpha_beta_congestion_step(const Step& step, const Topology& topology, size_t step_index,
                                                  const FabricSpec& fabric, const WorkloadSpec& workload) {
  const Segmentation segmentation(workload.chunk, fabric.packet);
  const std::vector<RoutedFlow> flows = route_step(step, topology, step_index);
  std::vector<Time> circuit_busy(topology.edges().size(), Time::zero());
  Time slowest_transfer_propagation, slowest_transfer_transmission;
  for (const RoutedFlow& flow : flows) {
    const Bytes bytes = flow.bytes;
    if (bytes.count() == 0) continue;
    const Time serialization = segmentation.serialization(bytes, fabric.bandwidth);
    for (uint32_t link : flow.links) circuit_busy[link] += serialization;
    const auto hops = static_cast<int64_t>(flow.links.size());
    const Bytes packet = segmentation.largest_packet(bytes);
    const Bytes forwarding_unit =
        fabric.router == RouterMode::store_and_forward ? packet : std::min(packet, fabric.header);
    const Time fill = fabric.bandwidth.serialization(forwarding_unit) * (hops - 1);
    const Time propagation = fabric.latency * hops;
    if (propagation + fill + serialization > slowest_transfer_propagation + slowest_transfer_transmission) {
      slowest_transfer_propagation = propagation;
      slowest_transfer_transmission = fill + serialization;
    }
  }
  StepPrediction p;
  p.startup = fabric.step_overhead;
  const Time congestion =
      circuit_busy.empty() ? Time::zero() : *std::max_element(circuit_busy.begin(), circuit_busy.end());
  if (congestion > Time::zero() &&
      congestion + fabric.latency > slowest_transfer_propagation + slowest_transfer_transmission) {
    p.propagation = fabric.latency;
    p.transmission = congestion;
  } else {
    p.propagation = slowest_transfer_propagation;
    p.transmission = slowest_transfer_transmission;
  }
  return p;
}

Prediction predict_alpha_beta_congestion(const Schedule& schedule, const FabricSpec& fabric,
                                         const WorkloadSpec& workload) {
  Prediction prediction;
  prediction.model = "alpha_beta_congestion";
  for (size_t s = 0; s < schedule.steps().size(); ++s) {
    const Step& step = schedule.steps()[s];
    const Topology& topology = schedule.topologies()[static_cast<size_t>(step.topology)];
    StepPrediction p = predict_alpha_beta_congestion_step(step, topology, s, fabric, workload);
    p.reconfiguration = schedule.reconfigures_before(s) ? fabric.reconfig_delay : Time::zero();
    prediction.steps.push_back(p);
  }
  return prediction;
}

}  // namespace photonsim
