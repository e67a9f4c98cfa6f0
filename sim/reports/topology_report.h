#pragma once
// Contract: a topology with its properties, as `photonsim topo` prints it:
// degrees, connectivity, diameter, average hop distance and, when a demand
// was given, theta (max concurrent flow). JSON keys are a contract: `gpus`,
// `edges` ([src, dst] per circuit, repeated per parallel circuit),
// `diameter` (-1 when not strongly connected), `theta` (with a demand).
#include <optional>
#include <string>

#include "topology/topology.h"

namespace photonsim {

struct TopologyReport {
  std::string type;
  Topology topology;
  std::optional<std::string> demand;  // demand name, e.g. "alltoall"
  std::optional<double> theta;
  double theta_seconds = 0;  // solve time, printed by the table only

  // Computes the properties and, for a demand, theta. Throws Error for an unknown demand.
  static TopologyReport build(std::string type, Topology topology, const std::optional<std::string>& demand);

  std::string table() const;
  std::string json() const;
  std::string dot() const;
};

}  // namespace photonsim
