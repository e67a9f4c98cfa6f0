#include "topology/circuit_rates.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace photonsim {

namespace {

// Shares k lanes out over the circuits `ends` names (each circuit's GPU at
// this end), in edge order: floor(k / c) each, the spare ones to the first.
std::vector<int> shares(const std::vector<Edge>& edges, int gpus, int ports, bool by_source) {
  std::vector<int> count(static_cast<size_t>(gpus), 0);
  for (const Edge& e : edges) ++count[by_source ? e.first : e.second];
  for (int u = 0; u < gpus; ++u) {
    if (count[static_cast<size_t>(u)] > ports) {
      throw Error("GPU " + std::to_string(u) + " has " + std::to_string(count[static_cast<size_t>(u)]) +
                  " circuits " + (by_source ? "out" : "in") + " but fabric.ports is " + std::to_string(ports));
    }
  }
  // Edges are sorted by (source, destination): a GPU's circuits out are in
  // peer order; its circuits in come in source order, also peer order.
  std::vector<int> seen(static_cast<size_t>(gpus), 0);
  std::vector<int> out(edges.size(), 0);
  for (size_t i = 0; i < edges.size(); ++i) {
    const auto end = static_cast<size_t>(by_source ? edges[i].first : edges[i].second);
    const int c = count[end];
    out[i] = ports / c + (seen[end] < ports % c ? 1 : 0);
    ++seen[end];
  }
  return out;
}

}  // namespace

std::vector<int> circuit_lanes(const Topology& topology, int ports) {
  const std::vector<int> tx = shares(topology.edges(), topology.gpus(), ports, true);
  const std::vector<int> rx = shares(topology.edges(), topology.gpus(), ports, false);
  std::vector<int> lanes(tx.size());
  for (size_t i = 0; i < tx.size(); ++i) lanes[i] = std::min(tx[i], rx[i]);
  return lanes;
}

std::vector<Bandwidth> circuit_rates(const Topology& topology, const FabricSpec& fabric) {
  if (fabric.bandwidth_scope == BandwidthScope::circuit) {
    return std::vector<Bandwidth>(topology.edges().size(), fabric.bandwidth);
  }
  const int64_t ports = fabric.ports;
  if (fabric.bandwidth.bps() % ports != 0) {
    throw Error("fabric.bandwidth_scope: gpu splits fabric.bandwidth (" + std::to_string(fabric.bandwidth.bps()) +
                " bps) over fabric.ports = " + std::to_string(ports) + " transmitters: it must be a multiple of " +
                std::to_string(ports) + " bps");
  }
  const int64_t per_lane = fabric.bandwidth.bps() / ports;
  std::vector<Bandwidth> rates;
  rates.reserve(topology.edges().size());
  for (int lanes : circuit_lanes(topology, fabric.ports)) rates.push_back(Bandwidth::bits_per_second(per_lane * lanes));
  return rates;
}

}  // namespace photonsim
