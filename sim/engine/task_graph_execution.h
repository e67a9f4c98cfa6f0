#pragma once
// Contract: the policy that executes one training iteration, a TaskGraph, on
// the RunDriver (its packet-level fabric).
//  - A node is released when every node it comes `after` has ended. A
//    compute node then runs for its duration (compute may overlap
//    communication on its GPUs), times the slowdown of the slowest straggler
//    among its GPUs (fabric.failures, kind straggler: ComputeSlowdown), in
//    packet and analytical timing alike.
//  - A communication node takes the ports of its GPUs for its whole run: a
//    collective their transmitters and receivers, a p2p send the
//    transmitters of src and the receivers of dst (so a GPU may send and
//    receive at once); each serves one communication node at a time. Nodes
//    waiting for ports
//    take them in order: released before preconfiguring, then, with
//    fabric.priority = p2p, sends before collectives (PCCL section 6), then by
//    the time they became ready, then by their place in the graph.
//  - On taking its ports a node sets up its first circuits (its schedule's
//    first topology; a send: one circuit src -> dst, on a port already leading
//    there, else on a dark one, with directed circuits first one whose switch
//    has no circuit into dst, else on the first port; ports counting only the
//    switches that survive the failures known when planning, as every
//    collective's CircuitPlan does, so no circuit is on a switch failed at
//    0). Circuits it does not want go
//    dark at once: with reconfiguration = all, every one on its GPUs' ports
//    and every one into its GPUs; with changed, only those whose receiver it
//    needs (directed: a circuit into v on switch p when it wants one into v on
//    switch p; bidirectional: a circuit x -> v when v's circuit back to x
//    changes). If a wanted circuit is not in place, its port is commanded
//    (OpticalSwitch::command) and lights reconfig_delay later (all: every wanted
//    port; changed: only those that differ); a wanted circuit already
//    commanded by a node that ended before it lit is waited for. Then its
//    schedule runs as a ScheduleExecution (fabric.sync inside the node) from
//    max(release, lit), lit being when the last of its first circuits lit.
//  - With fabric.preconfigure, a node may take its ports (and set up its
//    circuits) as soon as every communication node it depends on, directly or
//    through compute, that uses one of its ports has ended, while its GPUs
//    still compute: only what is not hidden is exposed. (Nothing it waits for
//    can then need its ports, so holding them early cannot deadlock.)
// A reconfiguration failure (fabric.failures) names a step of one schedule:
// not simulated in a task graph (the constructor throws Error naming it). The
// iteration ends with the last node. A time past the range throws
// GraphNodeError naming the node (inside a node's packets: the earliest
// started of the communication nodes running).
#include <exception>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/segmentation.h"
#include "core/spec/task_graph.h"
#include "core/work_progress.h"
#include "schedules/model/schedule.h"
#include "sim/engine/compute_slowdown.h"
#include "sim/engine/failure_cost.h"
#include "sim/engine/network/network_stats.h"
#include "sim/engine/network/timeline_recorder.h"
#include "sim/engine/node_placement.h"
#include "sim/engine/run_driver.h"
#include "sim/engine/run_policy.h"
#include "sim/engine/schedule_execution.h"
#include "sim/engine/schedule_observer.h"
#include "sim/engine/switch/optical_switch.h"

namespace photonsim {

// What a communication node runs: its schedule (on GPUs 0..g-1, GPU i being
// the fabric's gpus[i]) and its fabric (the graph's with gpus = g).
struct GraphNodeWork {
  const Schedule* schedule = nullptr;  // compute nodes: none
  FabricSpec fabric;
  std::vector<Node> gpus;
  // Analytical runs: how long the node takes once its first circuits are
  // lit, and the reconfiguration inside that (the synthesizer's model).
  Time predicted;
  Time predicted_reconfiguration;
};

// Packet: every communication node's packets on the shared network.
// Analytical: each takes its predicted time (same ports, circuits, setups and
// priorities), so the graph's prediction shares the packet run's rules.
enum class GraphTiming { packet, analytical };

struct GraphNodeResult {
  Time released;  // every node it waits for had ended
  Time acquired;  // it held its GPUs' ports (communication)
  Time lit;       // its first circuits were lit (communication)
  Time start;     // it began: compute at release, communication at max(release, lit)
  Time end;
  Time port_wait;                // released until it held its ports, when later
  Time exposed_reconfiguration;  // setting up its first circuits after release, plus its own reconfigurations
  Time hidden_reconfiguration;   // the part of the setup done before release
  int reconfigurations = 0;      // setup (0 or 1) + its schedule's own
  int held_up_by = -1;           // after a port wait: the node whose end freed the last of its ports
  bool operator==(const GraphNodeResult&) const = default;
};

struct GraphResult {
  Time iteration;
  std::vector<GraphNodeResult> nodes;
  // First to last: from each node back to what started it last, the node
  // that freed its ports after a port wait, else its latest-ending predecessor.
  std::vector<uint32_t> critical_path;
  uint64_t events = 0;
  NetworkStats network;
  // Per straggler of fabric.failures (in its order): the compute nodes it
  // slowed and the time it added (empty without stragglers).
  std::vector<FailureCost> failures;
};

class TaskGraphExecution : public RunPolicy, public ScheduleObserver {
 public:
  // `work[i]` for node i (its schedule outlives the run), on `driver` (whose
  // fabric is `fabric`); the timeline, if the driver records one, gets every
  // port's busy and dark spans (steps numbered across the graph: a node's
  // are after those of the nodes that took ports before it).
  TaskGraphExecution(RunDriver& driver, const FabricSpec& fabric, Segmentation segmentation, const TaskGraph& graph,
                     std::vector<GraphNodeWork> work, GraphTiming timing = GraphTiming::packet);
  TaskGraphExecution(const TaskGraphExecution&) = delete;
  TaskGraphExecution& operator=(const TaskGraphExecution&) = delete;
  ~TaskGraphExecution() override;
  GraphResult run();
  // Hears, node by node, how many of the graph's nodes have ended (null: no one).
  void report_to(WorkProgress* progress) { progress_ = progress; }

  void on_flow_delivered(uint32_t flow, Time now) override;
  void on_timer(Time now, uint64_t token) override;
  void on_schedule_done(uint32_t node, Time now) override;

 private:
  enum class Timer : uint8_t { compute_done = 1, setup_lit = 2, arbitrate = 3, predicted_done = 4 };
  struct NodeState {
    uint32_t waiting = 0;  // predecessors not yet ended
    // Predecessors not yet cleared: a communication node is cleared once it
    // holds its ports, a compute node once its own predecessors are cleared.
    // With preconfigure a communication node takes its ports once all its
    // predecessors are: all it waits for then holds its ports already or is
    // compute, so holding its own cannot hold up its own release (no
    // deadlock: every node it waits for runs once released).
    uint32_t uncleared = 0;
    bool released = false;
    bool queued = false;
    bool acquired = false;
    bool lit = false;
    bool started = false;
    bool ended = false;
    Time ready;                         // when it joined the queue for ports
    std::vector<uint32_t> setup_slots;  // its first circuits, lit once setup_lit fires
    uint32_t first_step = 0;            // its steps' numbers across the graph start here
    NodePlacement placement;
    std::unique_ptr<CircuitPlan> plan;  // analytical runs (a packet run's is its ScheduleExecution's)
  };

  // While TaskGraphExecution handles a node: an exception leaving the scope names
  // the node in `failed_at` (the innermost scope's, when they nest).
  class NodeScope {
   public:
    NodeScope(int& failed_at, uint32_t node)
        : failed_at_(failed_at), node_(node), exceptions_(std::uncaught_exceptions()) {}
    ~NodeScope() {
      if (std::uncaught_exceptions() > exceptions_ && failed_at_ < 0) failed_at_ = static_cast<int>(node_);
    }
    NodeScope(const NodeScope&) = delete;
    NodeScope& operator=(const NodeScope&) = delete;

   private:
    int& failed_at_;
    uint32_t node_;
    int exceptions_;
  };

  bool communicates(uint32_t node) const { return work_[node].schedule != nullptr; }
  void schedule_timer(Time at, Timer kind, uint64_t id);
  // now + span, or GraphNodeError naming the node and `what` took it past the time range.
  Time later(uint32_t node, Time now, Time span, const char* what) const;
  void release(uint32_t node, Time now);
  // Every predecessor of `node` is cleared: a compute node clears its
  // successors in turn, a communication node not yet released may take its
  // ports (preconfigure) and clears its successors when it does.
  void cleared(uint32_t node, Time now);
  void enqueue(uint32_t node, Time now);
  void arbitrate(Time now);
  void acquire(uint32_t node, Time now);
  void lit(uint32_t node, Time now);
  void begin(uint32_t node, Time now);
  void end(uint32_t node, Time now);
  NodePlacement placement_for(uint32_t node) const;
  const CircuitPlan& plan_of(uint32_t node) const;
  // Its circuits left in place, ports and successors released.
  void communication_done(uint32_t node, Time now, int reconfigurations, Time reconfiguration);

  const FabricSpec& fabric_;
  const Segmentation segmentation_;
  const TaskGraph& graph_;
  const std::vector<GraphNodeWork> work_;
  const uint32_t ports_;
  // The switches that survive the failures known when planning, ascending
  // (0 .. ports-1 when none failed): the ports a send's circuit may take.
  const std::vector<uint32_t> working_ports_;
  const GraphTiming timing_;
  const ComputeSlowdown slowdown_;
  std::vector<FailureCost> straggler_costs_;  // per slowdown_.entries()
  RunDriver& driver_;
  OpticalSwitch& switch_;
  const uint32_t policy_id_;
  WorkProgress* progress_ = nullptr;
  size_t ended_nodes_ = 0;
  std::vector<std::vector<uint32_t>> successors_;
  std::vector<NodeState> state_;
  std::vector<GraphNodeResult> results_;
  std::vector<std::unique_ptr<ScheduleExecution>> runs_;  // a node's while it runs (freed after it ends)
  std::vector<uint32_t> finished_;                        // nodes whose run ended since the last event
  std::vector<int> policy_node_;                          // the driver's policy id -> node (-1: none)
  // Resources: GPU g's transmitters are 2g, its receivers 2g + 1.
  std::vector<std::vector<uint32_t>> resources_;  // per node
  std::vector<char> held_;                        // per resource
  std::vector<int> freed_by_;                     // per resource: the communication node that last let it go
  // Communication nodes waiting for ports, by the ports they want (one group
  // per set of ports), each group in the order they take them (WaitKey).
  using WaitKey = std::tuple<int, int, Time, uint32_t>;  // released first, p2p first (priority p2p), ready, node
  WaitKey wait_key(uint32_t node) const;
  void unqueue(uint32_t node);
  std::vector<uint32_t> port_group_;        // per node
  std::vector<std::set<WaitKey>> waiting_;  // per group
  std::vector<uint32_t> active_;            // groups that may hold waiting nodes
  std::vector<char> in_active_;             // per group
  size_t waiting_groups_ = 0;               // groups holding waiting nodes
  bool arbitration_pending_ = false;
  int failed_at_ = -1;  // the node being handled when an exception left the event loop
  uint32_t step_base_ = 0;
  uint32_t place_base_ = 0;
};

// One iteration of `graph` on a fabric of its own (`progress`: nodes ended).
GraphResult run_task_graph(const FabricSpec& fabric, Segmentation segmentation, const TaskGraph& graph,
                           std::vector<GraphNodeWork> work, Timeline* timeline = nullptr,
                           GraphTiming timing = GraphTiming::packet, WorkProgress* progress = nullptr);

}  // namespace photonsim
