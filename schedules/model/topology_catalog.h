#pragma once
// Contract: the distinct topologies a planner uses, in order of first use.
// index_of() returns the index of an equal topology (same circuits) or adds it,
// so a schedule never lists the same configuration twice.
#include <vector>

#include "topology/topology.h"

namespace photonsim {

class TopologyCatalog {
 public:
  int index_of(const Topology& topology) {
    for (size_t i = 0; i < topologies_.size(); ++i) {
      if (topologies_[i] == topology) return static_cast<int>(i);
    }
    topologies_.push_back(topology);
    return static_cast<int>(topologies_.size() - 1);
  }
  std::vector<Topology> take() { return std::move(topologies_); }

 private:
  std::vector<Topology> topologies_;
};

}  // namespace photonsim
