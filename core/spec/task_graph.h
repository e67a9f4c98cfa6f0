#pragma once
// Contract: a training iteration as a task graph (YAML `workload.graph`, to be
// wired to the loader and executed by the engine): compute nodes (a GPU set
// busy for a duration), collectives over a GPU group, peer-to-peer sends, and
// delays (a duration that holds no GPU and no port: host-side work such as a
// trace's CPU operations), with `after` dependencies. TaskGraph::build validates it as a whole and
// throws Error naming the node at fault:
//  - names unique and non-empty; every `after` names a node; no cycle (the
//    cycle is named in order);
//  - GPUs within 0..gpus-1, listed once; compute: at least one GPU and a
//    positive duration; collective: a group of at least two GPUs and a
//    positive message (root, for broadcast, in the group); p2p: src != dst
//    and positive bytes; delay: a positive duration (its GPUs, if any, only
//    say whose host runs it);
//  - two nodes that may run at once (neither after the other, directly or
//    not) must not share a GPU when both compute, or when both are
//    collectives; a p2p send may (the engine gives a GPU's ports to one
//    communication node at a time, by fabric.priority), and a compute node
//    may overlap communication on its GPUs (that overlap is the point);
//  - compute and delays alone along any chain of `after` ends within the time range
//    (int64 picoseconds): the node where the sum passes it is named.
// Building takes O(nodes + edges) time and memory but for one reachability
// query (core/spec/reachability.h) per GPU a node lists: near-linear for chains,
// never the all-pairs closure.
// Nodes keep their given order; topological_order() lists them so that every
// node comes after all it waits for (ties: the given order).
#include <cstdint>
#include <string>
#include <vector>

#include "core/time.h"
#include "core/units.h"
#include "core/spec/workload_spec.h"

namespace photonsim {

enum class TaskKind { compute, collective, p2p, delay };

inline constexpr EnumName<TaskKind> kTaskKindNames[] = {{TaskKind::compute, "compute"},
                                                        {TaskKind::collective, "collective"},
                                                        {TaskKind::p2p, "p2p"},
                                                        {TaskKind::delay, "delay"}};

// A node that takes time without the network: compute or a delay.
inline bool runs_off_network(TaskKind kind) { return kind == TaskKind::compute || kind == TaskKind::delay; }

struct TaskNode {
  std::string name;
  TaskKind kind = TaskKind::compute;
  std::vector<int> gpus;  // compute: the GPUs busy; collective: the group; delay: whose host (p2p: unused)
  Time duration;          // compute, delay
  Collective collective = Collective::allreduce;
  Bytes message;  // collective: as workload.message for the group
  int root = 0;   // broadcast: a GPU of the group
  // collective: its own synthesis.algorithm / planner (empty: the config's)
  std::string algorithm;
  std::string planner;
  int src = 0;  // p2p
  int dst = 0;  // p2p
  Bytes bytes;  // p2p
  std::vector<std::string> after;
};

class TaskGraph {
 public:
  static TaskGraph build(std::vector<TaskNode> nodes, int gpus);

  const std::vector<TaskNode>& nodes() const { return nodes_; }
  // Indices of the nodes each node waits for directly, ascending.
  const std::vector<std::vector<uint32_t>>& predecessors() const { return predecessors_; }
  const std::vector<uint32_t>& topological_order() const { return order_; }
  // The GPUs a node occupies: compute and collective their list, p2p {src, dst}.
  static std::vector<int> gpus_of(const TaskNode& node);

 private:
  std::vector<TaskNode> nodes_;
  std::vector<std::vector<uint32_t>> predecessors_;
  std::vector<uint32_t> order_;
};

const char* to_string(TaskKind kind);

}  // namespace photonsim
