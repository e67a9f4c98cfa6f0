#include "schedules/model/schedule.h"

#include "core/error.h"
#include "schedules/model/block_sizes.h"

namespace photonsim {

Schedule::Schedule(ScheduleParts parts) : p_(std::move(parts)) {
  const int t = static_cast<int>(p_.topologies.size());
  if (p_.gpus < 2) throw Error("schedule: gpus must be at least 2, got " + std::to_string(p_.gpus));
  if (p_.initial_topology < -1 || p_.initial_topology >= t) {
    throw Error("schedule: initial_topology " + std::to_string(p_.initial_topology) +
                " is not -1 or a topology index below " + std::to_string(t));
  }
  for (const Topology& topo : p_.topologies) {
    if (topo.gpus() != p_.gpus) {
      throw Error("schedule: topology '" + topo.name() + "' has " + std::to_string(topo.gpus()) +
                  " GPUs, schedule has " + std::to_string(p_.gpus));
    }
  }
  if (p_.root < 0 || p_.root >= p_.gpus) {
    throw Error("schedule: root " + std::to_string(p_.root) + " is not a node in 0.." + std::to_string(p_.gpus - 1));
  }
  if (!p_.block_sizes.empty() && p_.block_sizes.size() != p_.blocks) {
    throw Error("schedule: " + std::to_string(p_.block_sizes.size()) + " block sizes for " + std::to_string(p_.blocks) +
                " blocks");
  }
  const bool partable = p_.collective == Collective::alltoall || p_.collective == Collective::allgather ||
                        p_.collective == Collective::reducescatter;
  if (p_.block_parts < 1 || (p_.block_parts > 1 && !partable)) {
    throw Error("schedule: block_parts " + std::to_string(p_.block_parts) +
                " (only all-to-all flows and all-gather / reduce-scatter blocks are cut into parts)");
  }
  const Node n = static_cast<Node>(p_.gpus);
  for (size_t s = 0; s < p_.steps.size(); ++s) {
    const Step& step = p_.steps[s];
    const std::string where = "schedule step " + std::to_string(s);
    if (step.topology < 0 || step.topology >= t) {
      throw Error(where + ": topology index " + std::to_string(step.topology) + " out of range 0.." +
                  std::to_string(t - 1));
    }
    for (const Transfer& x : step.transfers) {
      if (x.src >= n || x.dst >= n) {
        throw Error(where + ": transfer " + std::to_string(x.src) + "->" + std::to_string(x.dst) +
                    " names a node outside 0.." + std::to_string(n - 1));
      }
      if (x.src == x.dst) throw Error(where + ": transfer from node " + std::to_string(x.src) + " to itself");
      if (x.bytes.count() < 0) throw Error(where + ": transfer with negative bytes");
      if (!x.path.empty() && (x.path.front() != x.src || x.path.back() != x.dst)) {
        throw Error(where + ": explicit path of transfer " + std::to_string(x.src) + "->" + std::to_string(x.dst) +
                    " does not run from src to dst");
      }
      for (Node v : x.path) {
        if (v >= n) throw Error(where + ": path names node " + std::to_string(v) + " outside the fabric");
      }
      if (!x.routes.empty()) {
        const std::string name = where + ": transfer " + std::to_string(x.src) + "->" + std::to_string(x.dst);
        if (!x.path.empty()) throw Error(name + " has both a path and routes");
        Bytes total;
        for (const Route& r : x.routes) {
          if (r.path.size() < 2 || r.path.front() != x.src || r.path.back() != x.dst) {
            throw Error(name + ": a route does not run from src to dst");
          }
          for (Node v : r.path) {
            if (v >= n) throw Error(name + ": a route names node " + std::to_string(v) + " outside the fabric");
          }
          if (r.bytes.count() < 0) throw Error(name + ": a route with negative bytes");
          total += r.bytes;
        }
        if (total != x.bytes) {
          throw Error(name + ": routes carry " + std::to_string(total.count()) + " bytes, the transfer " +
                      std::to_string(x.bytes.count()));
        }
      }
    }
  }
  if (!p_.prediction.steps.empty() && p_.prediction.steps.size() != p_.steps.size()) {
    throw Error("schedule: prediction has " + std::to_string(p_.prediction.steps.size()) + " steps, schedule has " +
                std::to_string(p_.steps.size()));
  }
}

Bytes Schedule::block_size(uint32_t b) const {
  if (!p_.block_sizes.empty()) return p_.block_sizes.at(b);
  if (p_.collective == Collective::alltoall) {
    return p_.block_parts > 1 ? block_bytes(p_.message, p_.block_parts, b % p_.block_parts) : p_.message;
  }
  return block_bytes(p_.message, p_.blocks, b);
}

Schedule Schedule::with_prediction(Prediction prediction) const& {
  ScheduleParts parts = p_;
  parts.prediction = std::move(prediction);
  return Schedule(std::move(parts));
}

Schedule Schedule::with_prediction(Prediction prediction) && {
  ScheduleParts parts = std::move(p_);
  parts.prediction = std::move(prediction);
  return Schedule(std::move(parts));
}

bool Schedule::reconfigures_before(size_t step) const {
  const Topology& next = p_.topologies[static_cast<size_t>(p_.steps.at(step).topology)];
  if (step == 0) {
    if (p_.initial_topology < 0) return true;
    return !(p_.topologies[static_cast<size_t>(p_.initial_topology)] == next);
  }
  return !(p_.topologies[static_cast<size_t>(p_.steps[step - 1].topology)] == next);
}

int Schedule::reconfigurations() const {
  int count = 0;
  for (size_t s = 0; s < p_.steps.size(); ++s) count += reconfigures_before(s) ? 1 : 0;
  return count;
}

}  // namespace photonsim
