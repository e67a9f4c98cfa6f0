#include "schedules/cost/alpha_beta_congestion_model.h"

#include <algorithm>
#include <exception>
#include <string>

#include "core/error.h"
#include "core/segmentation.h"
#include "schedules/model/step_routes.h"
#include "topology/circuit_rates.h"

namespace photonsim {

namespace {

// One transfer alone on its path: hops x latency, then its serialisation plus
// the pipeline fill (hops - 1) x forwarding unit.
struct TransferAlone {
  Time propagation;
  Time transmission;
  Time total() const { return propagation + transmission; }
};

Bytes forwarding_unit(Bytes bytes, const Segmentation& segmentation, const FabricSpec& fabric) {
  const Bytes packet = segmentation.largest_packet(bytes);
  return fabric.router == RouterMode::store_and_forward ? packet : std::min(packet, fabric.header);
}

TransferAlone transfer_alone(Bytes bytes, int64_t hops, Time serialization, const Segmentation& segmentation,
                             const FabricSpec& fabric) {
  const Time fill = fabric.bandwidth.serialization(forwarding_unit(bytes, segmentation, fabric)) * (hops - 1);
  return {fabric.latency * hops, fill + serialization};
}

// Alone on circuits of different rates (bandwidth_scope gpu, store and
// forward): the whole transfer at the slowest circuit's rate, the pipeline
// fill one forwarding unit per other circuit at its own.
TransferAlone transfer_alone_at_rates(Bytes bytes, const std::vector<uint32_t>& links,
                                      const std::vector<Bandwidth>& rates, const Segmentation& segmentation,
                                      const FabricSpec& fabric) {
  size_t slowest = 0;
  for (size_t i = 1; i < links.size(); ++i) {
    if (rates[links[i]] < rates[links[slowest]]) slowest = i;
  }
  const Bytes unit = forwarding_unit(bytes, segmentation, fabric);
  Time transmission = segmentation.serialization(bytes, rates[links[slowest]]);
  for (size_t i = 0; i < links.size(); ++i) {
    if (i != slowest) transmission += rates[links[i]].serialization(unit);
  }
  return {fabric.latency * static_cast<int64_t>(links.size()), transmission};
}

// The larger of the two lower bounds: the busiest circuit (plus one latency
// for its last packet) or the slowest transfer alone.
StepPrediction larger_bound(Time busiest_circuit, TransferAlone slowest, const FabricSpec& fabric) {
  StepPrediction p;
  p.startup = fabric.step_overhead;
  if (busiest_circuit > Time::zero() && busiest_circuit + fabric.latency > slowest.total()) {
    p.propagation = fabric.latency;
    p.transmission = busiest_circuit;
  } else {
    p.propagation = slowest.propagation;
    p.transmission = slowest.transmission;
  }
  return p;
}

// Where one step's prediction reports, within the whole schedule's.
struct StepProgress {
  WorkProgress* listener = nullptr;
  std::string_view stage;
  size_t steps = 1;
};

StepPrediction predict_step(const Step& step, const Topology& topology, size_t step_index, const FabricSpec& fabric,
                            const WorkloadSpec& workload, const StepProgress& progress) {
  const Segmentation segmentation(workload.chunk, fabric.packet);
  std::vector<Time> circuit_busy(topology.edges().size(), Time::zero());
  // Every circuit at fabric.bandwidth unless the GPUs' bandwidth is split.
  const std::vector<Bandwidth> rates =
      fabric.bandwidth_scope == BandwidthScope::circuit ? std::vector<Bandwidth>() : circuit_rates(topology, fabric);
  TransferAlone slowest;
  // Routes stream in one at a time (a step of every all-to-all pair would
  // hold O(n^3) links); an overflow waits until every transfer is routed, so
  // an unroutable transfer is still the error reported first.
  std::exception_ptr overflow;
  const auto transfers = static_cast<double>(step.transfers.size());
  for_each_routed_flow(step, topology, step_index, [&](RoutedFlow&& flow) {
    if (progress.listener != nullptr && flow.transfer % 4096 == 0) {
      progress.listener->progressed({progress.stage,
                                     static_cast<double>(step_index) + static_cast<double>(flow.transfer) / transfers,
                                     static_cast<double>(progress.steps)});
    }
    if (overflow) return;
    try {
      const Bytes bytes = flow.bytes;
      if (bytes.count() == 0) return;
      if (!rates.empty()) {
        for (uint32_t link : flow.links) circuit_busy[link] += segmentation.serialization(bytes, rates[link]);
        const TransferAlone alone = transfer_alone_at_rates(bytes, flow.links, rates, segmentation, fabric);
        if (alone.total() > slowest.total()) slowest = alone;
        return;
      }
      const Time serialization = segmentation.serialization(bytes, fabric.bandwidth);
      for (uint32_t link : flow.links) circuit_busy[link] += serialization;
      const TransferAlone alone =
          transfer_alone(bytes, static_cast<int64_t>(flow.links.size()), serialization, segmentation, fabric);
      if (alone.total() > slowest.total()) slowest = alone;
    } catch (...) {
      overflow = std::current_exception();
    }
  });
  if (overflow) std::rethrow_exception(overflow);
  const Time busiest =
      circuit_busy.empty() ? Time::zero() : *std::max_element(circuit_busy.begin(), circuit_busy.end());
  return larger_bound(busiest, slowest, fabric);
}

}  // namespace

StepPrediction predict_alpha_beta_congestion_step(const Step& step, const Topology& topology, size_t step_index,
                                                  const FabricSpec& fabric, const WorkloadSpec& workload) {
  return predict_step(step, topology, step_index, fabric, workload, StepProgress{});
}

StepPrediction predict_alpha_beta_congestion_uniform_step(Bytes bytes, int hops, int64_t transfers_on_busiest_circuit,
                                                          const FabricSpec& fabric, const WorkloadSpec& workload) {
  if (fabric.bandwidth_scope != BandwidthScope::circuit) {
    throw Error(
        "the uniform-step estimate (the all-to-all planners' search) runs every circuit at "
        "fabric.bandwidth; fabric.bandwidth_scope: gpu needs a planner that routes each step (static, "
        "every_step, pccl, segments, exhaustive)");
  }
  if (bytes.count() == 0 || hops == 0 || transfers_on_busiest_circuit == 0) return larger_bound({}, {}, fabric);
  const Segmentation segmentation(workload.chunk, fabric.packet);
  const Time serialization = segmentation.serialization(bytes, fabric.bandwidth);
  return larger_bound(serialization * transfers_on_busiest_circuit,
                      transfer_alone(bytes, hops, serialization, segmentation, fabric), fabric);
}

Prediction predict_alpha_beta_congestion(const Schedule& schedule, const FabricSpec& fabric,
                                         const WorkloadSpec& workload, WorkProgress* progress) {
  Prediction prediction;
  prediction.model = "alpha_beta_congestion";
  const size_t steps = schedule.steps().size();
  const std::string stage = "predicting the time of " + std::to_string(steps) + (steps == 1 ? " step" : " steps");
  const StepProgress where{progress, stage, steps};
  for (size_t s = 0; s < schedule.steps().size(); ++s) {
    const Step& step = schedule.steps()[s];
    const Topology& topology = schedule.topologies()[static_cast<size_t>(step.topology)];
    StepPrediction p = predict_step(step, topology, s, fabric, workload, where);
    p.reconfiguration = schedule.reconfigures_before(s) ? fabric.reconfig_delay : Time::zero();
    prediction.steps.push_back(p);
  }
  return prediction;
}

}  // namespace photonsim
