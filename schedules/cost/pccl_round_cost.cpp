#include "schedules/cost/pccl_round_cost.h"

#include <algorithm>

#include "schedules/model/step_routes.h"
#include "topology/circuit_rates.h"
#include "topology/congestion_dilation.h"

namespace photonsim {

namespace {

// Each circuit's routed bytes in the round.
std::vector<int64_t> bytes_per_circuit(const Topology& topology, const std::vector<Transfer>& round, size_t index) {
  std::vector<int64_t> per_circuit(topology.edges().size(), 0);
  for (const RoutedFlow& flow : route_step(Step{0, round}, topology, index)) {
    for (uint32_t link : flow.links) per_circuit[link] += flow.bytes.count();
  }
  return per_circuit;
}

}  // namespace

const char* pccl_model_name(LoadModel model) { return model == LoadModel::edge_bytes ? "pccl" : "pccl_max_transfer"; }

std::optional<RoundCost> communication_cost(const Topology& topology, const std::vector<Transfer>& round, size_t index,
                                            const FabricSpec& fabric, LoadModel model) {
  std::vector<Edge> pairs;
  pairs.reserve(round.size());
  for (const Transfer& t : round) pairs.push_back({t.src, t.dst});
  const CongestionDilation cd = compute_congestion_dilation(topology, pairs);
  if (!cd.reachable) return std::nullopt;
  Bytes w;
  bool equal_sizes = true;
  for (const Transfer& t : round) {
    w = std::max(w, t.bytes);
    equal_sizes = equal_sizes && t.bytes == round.front().bytes;
  }
  const auto& edges = topology.edges();
  const bool single_circuits = std::adjacent_find(edges.begin(), edges.end()) == edges.end();
  if (fabric.bandwidth_scope != BandwidthScope::circuit) {
    // Circuits of different rates: the slowest to drain its load sets the
    // round (max_transfer: congestion * w on each circuit a transfer crosses).
    const std::vector<Bandwidth> rates = circuit_rates(topology, fabric);
    const std::vector<int64_t> per_circuit = bytes_per_circuit(topology, round, index);
    Time transmission;
    for (size_t i = 0; i < edges.size(); ++i) {
      if (per_circuit[i] == 0) continue;
      const Bytes load = model == LoadModel::max_transfer ? w * cd.congestion : Bytes(per_circuit[i]);
      transmission = std::max(transmission, rates[i].serialization(load));
    }
    return RoundCost{fabric.latency * cd.dilation, transmission};
  }
  Bytes load;
  if (model == LoadModel::max_transfer || (equal_sizes && single_circuits)) {
    // With equal transfers on single circuits the busiest circuit carries exactly
    // congestion * w, so routing the round a second time would only cost time.
    load = w * cd.congestion;
  } else {
    for (int64_t bytes : bytes_per_circuit(topology, round, index)) load = std::max(load, Bytes(bytes));
  }
  return RoundCost{fabric.latency * cd.dilation, fabric.bandwidth.serialization(load)};
}

}  // namespace photonsim
