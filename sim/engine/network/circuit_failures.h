#pragma once
// Contract: which fabric.failures entries take circuits down (kinds port,
// flap and switch: docs/model.md, "Lost circuits", L1) and, for a circuit
// aimed from GPU a's port p to GPU b, when it is down: the entries on (a, p),
// on (b, p) and on switch p; and which degrade it (kind link, on either
// end's port): the rate it runs at, span by span. Built once per run from the
// fabric; empty (and free) on a fabric with no such entry.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "sim/engine/network/circuit_down_time.h"
#include "topology/topology.h"

namespace photonsim {

class CircuitFailures {
 public:
  explicit CircuitFailures(const FabricSpec& fabric);

  // Whether the fabric has an entry that takes circuits down (of a kind
  // that does: photonsim::takes_circuits_down).
  static bool takes_circuits_down(const FailureSpec& failures);
  static bool degrades_links(const FailureSpec& failures);
  bool any() const { return any_; }
  CircuitDownTime circuit(Node from, Node to, uint32_t port) const;
  // The spans, in time order and disjoint, over which the circuit runs below
  // `rate`: the lower of its two ends' degraded rates (none: empty).
  std::vector<DegradedSpan> degraded(Node from, Node to, uint32_t port, Bandwidth rate) const;
  // The entry (lowest index) that keeps every port of `gpu` down from `now`
  // to the run's end, if every port is so.
  std::optional<uint32_t> gpu_down_forever(Node gpu, Time now) const;
  int gpus() const { return gpus_; }
  int ports() const { return ports_; }

 private:
  // The raw intervals of the entries on GPU `from`'s port `port`, on GPU
  // `to`'s (when it is another GPU) and on switch `port`, in that order.
  std::vector<EntryInterval> intervals_on(Node from, Node to, uint32_t port) const;

  int gpus_;
  int ports_;
  bool any_ = false;
  std::vector<std::vector<EntryInterval>> by_port_;    // per gpu * ports + port
  std::vector<std::vector<EntryInterval>> by_switch_;  // per switch
  struct LinkEntry {
    DownInterval span;
    Bandwidth rate;
  };
  std::vector<std::vector<LinkEntry>> links_;  // per gpu * ports + port; only with link entries
};

}  // namespace photonsim
