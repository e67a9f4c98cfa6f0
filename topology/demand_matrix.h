#pragma once
// Contract: a dense n x n matrix of demands D(s,t) >= 0 (finite) from GPU s to
// GPU t, in any unit (bytes, blocks, or 1 for "s talks to t"); only ratios
// matter to max_concurrent_flow. D(s,s) may be set but is ignored by every
// consumer, since a GPU does not send to itself over the fabric.
#include <vector>

#include "topology/topology.h"

namespace photonsim {

class DemandMatrix {
 public:
  // Throws Error if gpus < 0. Every entry starts at 0.
  explicit DemandMatrix(int gpus);
  // Uniform all-to-all: D(s,t) = 1 for every s != t.
  static DemandMatrix alltoall(int gpus);

  int gpus() const { return gpus_; }
  // Both throw Error naming the pair when a node is out of range or the
  // value is negative or not finite.
  void set(Node s, Node t, double value);
  void add(Node s, Node t, double value);
  // Throws Error naming the pair when a node is out of range.
  double at(Node s, Node t) const;
  // Largest off-diagonal entry (0 when there is no demand at all).
  double max_off_diagonal() const;

  bool operator==(const DemandMatrix& o) const = default;

 private:
  size_t index(Node s, Node t) const;

  int gpus_ = 0;
  std::vector<double> entries_;  // row-major, entries_[s * gpus_ + t]
};

}  // namespace photonsim
