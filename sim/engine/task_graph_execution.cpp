#include "sim/engine/task_graph_execution.h"

#include <algorithm>
#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/error.h"
#include "core/spec/graph_node_error.h"
#include "core/spec/planning_failures.h"
#include "core/time_overflow.h"

namespace photonsim {

namespace {

constexpr int kTaskTimerShift = 32;  // a timer token: kind above, its node below

// The switches a circuit may take: those that survive the failures known when
// planning, ascending (every one when none failed, or when none survives and
// so nothing is planned to take one).
std::vector<uint32_t> working_ports_of(const FabricSpec& fabric) {
  std::vector<uint32_t> out;
  for (int p : PlanningFailures::of(fabric).surviving) out.push_back(static_cast<uint32_t>(p));
  if (out.empty()) {
    for (int p = 0; p < fabric.ports; ++p) out.push_back(static_cast<uint32_t>(p));
  }
  return out;
}

}  // namespace

TaskGraphExecution::TaskGraphExecution(RunDriver& driver, const FabricSpec& fabric, Segmentation segmentation,
                                       const TaskGraph& graph, std::vector<GraphNodeWork> work, GraphTiming timing)
    : fabric_(fabric),
      segmentation_(segmentation),
      graph_(graph),
      work_(std::move(work)),
      ports_(static_cast<uint32_t>(fabric.ports)),
      working_ports_(working_ports_of(fabric)),
      timing_(timing),
      slowdown_(fabric.failures, fabric.gpus),
      driver_(driver),
      switch_(driver.fabric_switch()),
      policy_id_(driver.enlist(*this)) {
  for (size_t i = 0; i < fabric.failures.entries.size(); ++i) {
    const Failure& f = fabric.failures.entries[i];
    if (f.kind != FailureKind::reconfiguration) continue;
    throw Error("fabric.failures[" + std::to_string(i) + "] (reconfiguration, step " + std::to_string(f.step) +
                "): a slow reconfiguration names a step of one schedule, and a task graph's steps are its nodes' "
                "(numbered as they take their ports): not simulated in a task graph yet (issue 55)");
  }
  for (size_t entry : slowdown_.entries()) straggler_costs_.push_back(no_cost_yet(entry, FailureKind::straggler));
  const size_t n = graph.nodes().size();
  if (work_.size() != n) throw std::logic_error("TaskGraphExecution: one GraphNodeWork per node");
  for (size_t i = 0; i < n; ++i) {
    if (communicates(static_cast<uint32_t>(i)) == runs_off_network(graph.nodes()[i].kind)) {
      throw std::logic_error("TaskGraphExecution: a schedule for each communication node and none for compute");
    }
  }
  held_.assign(2 * static_cast<size_t>(fabric.gpus), 0);
  freed_by_.assign(2 * static_cast<size_t>(fabric.gpus), -1);
  resources_.resize(n);
  for (uint32_t v = 0; v < n; ++v) {
    const TaskNode& node = graph.nodes()[v];
    if (node.kind == TaskKind::p2p) {
      resources_[v] = {2 * static_cast<uint32_t>(node.src), 2 * static_cast<uint32_t>(node.dst) + 1};
    } else if (node.kind == TaskKind::collective) {
      for (int g : node.gpus) {
        resources_[v].push_back(2 * static_cast<uint32_t>(g));
        resources_[v].push_back(2 * static_cast<uint32_t>(g) + 1);
      }
    }
  }
  successors_.resize(n);
  state_.resize(n);
  results_.resize(n);
  runs_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const auto& preds = graph.predecessors()[i];
    state_[i].waiting = static_cast<uint32_t>(preds.size());
    state_[i].uncleared = static_cast<uint32_t>(preds.size());
    for (uint32_t p : preds) successors_[p].push_back(i);
  }
  // Nodes that want the same ports wait together (arbitrate).
  std::map<std::vector<uint32_t>, uint32_t> groups;
  port_group_.assign(n, 0);
  for (uint32_t v = 0; v < n; ++v) {
    std::vector<uint32_t> ports = resources_[v];
    std::sort(ports.begin(), ports.end());
    port_group_[v] = groups.emplace(std::move(ports), static_cast<uint32_t>(groups.size())).first->second;
  }
  waiting_.resize(groups.size());
  in_active_.assign(groups.size(), 0);
}

Time TaskGraphExecution::later(uint32_t node, Time now, Time span, const char* what) const {
  try {
    return now + span;
  } catch (const TimeOverflow& e) {
    throw GraphNodeError(graph_.nodes()[node].name,
                         std::string(timing_ == GraphTiming::analytical ? "the predicted" : "the simulated") +
                             " iteration passes the largest time photonsim represents, 9223372036854775807 ps (about "
                             "106.75 days), at its " +
                             what + ": " + std::to_string(span.picoseconds()) + " ps from " +
                             std::to_string(now.picoseconds()) + " ps");
  }
}

TaskGraphExecution::~TaskGraphExecution() {
  runs_.clear();
  driver_.retire(policy_id_);
}

void TaskGraphExecution::schedule_timer(Time at, Timer kind, uint64_t id) {
  driver_.timer(policy_id_, at, (static_cast<uint64_t>(kind) << kTaskTimerShift) | id);
}

GraphResult TaskGraphExecution::run() {
  const Time zero = Time::zero();
  for (uint32_t v : graph_.topological_order()) {
    if (graph_.predecessors()[v].empty()) cleared(v, zero);
  }
  for (uint32_t v : graph_.topological_order()) {
    if (graph_.predecessors()[v].empty()) release(v, zero);
  }
  failed_at_ = -1;
  try {
    driver_.run();
  } catch (const GraphNodeError&) {
    throw;
  } catch (const Error& e) {
    // Thrown while handling a node (or a delivery of its flows): that node.
    // Else inside the packets of the communication running: the one that
    // started first (the one whose traffic it is, when only one runs).
    if (failed_at_ < 0 && driver_.delivering_to()) {
      const uint32_t policy = *driver_.delivering_to();
      if (policy < policy_node_.size()) failed_at_ = policy_node_[policy];
    }
    if (failed_at_ >= 0) throw GraphNodeError(graph_.nodes()[static_cast<size_t>(failed_at_)].name, e.what());
    int running = -1;
    for (uint32_t v = 0; v < state_.size(); ++v) {
      if (state_[v].started && !state_[v].ended && communicates(v) &&
          (running < 0 || results_[v].start < results_[static_cast<size_t>(running)].start)) {
        running = static_cast<int>(v);
      }
    }
    if (running < 0) throw;
    throw GraphNodeError(graph_.nodes()[static_cast<size_t>(running)].name, std::string("while it ran: ") + e.what());
  }

  GraphResult result;
  const auto& nodes = graph_.nodes();
  uint32_t last = 0;
  for (uint32_t v = 0; v < nodes.size(); ++v) {
    if (!state_[v].ended) {
      throw std::logic_error("task graph node '" + nodes[v].name +
                             "' never ended (an engine invariant; please report it with the graph)");
    }
    if (results_[v].end > results_[last].end) last = v;
  }
  result.network = driver_.finish();
  if (!nodes.empty()) {
    result.iteration = results_[last].end;
    for (uint32_t v = last;;) {
      result.critical_path.push_back(v);
      if (results_[v].held_up_by >= 0) {
        v = static_cast<uint32_t>(results_[v].held_up_by);
        continue;
      }
      const auto& preds = graph_.predecessors()[v];
      if (preds.empty()) break;
      uint32_t latest = preds.front();
      for (uint32_t p : preds) {
        if (results_[p].end > results_[latest].end) latest = p;
      }
      v = latest;
    }
    std::reverse(result.critical_path.begin(), result.critical_path.end());
  }
  result.nodes = std::move(results_);
  result.events = driver_.events_fired();
  result.failures = straggler_costs_;
  add_lost_circuit_costs(fabric_.failures, result.network, result.failures);
  return result;
}

void TaskGraphExecution::release(uint32_t node, Time now) {
  const NodeScope scope(failed_at_, node);
  NodeState& st = state_[node];
  if (st.queued) unqueue(node);  // preconfiguring: it waits on as released, below
  st.released = true;
  results_[node].released = now;
  if (!communicates(node)) {
    st.started = true;
    results_[node].start = now;
    const TaskNode& task = graph_.nodes()[node];
    const char* what = task.kind == TaskKind::delay ? "delay (duration)" : "compute (duration)";
    Time duration = task.duration;
    if (slowdown_.any()) {
      const std::optional<ComputeSlowdown::Slowed> slowed = slowdown_.apply(task);
      if (!slowed) {
        throw GraphNodeError(task.name, "its compute (duration " + std::to_string(task.duration.picoseconds()) +
                                            " ps) times its straggler's slowdown (fabric.failures) passes the largest "
                                            "time photonsim represents, 9223372036854775807 ps (about 106.75 days)");
      }
      duration = slowed->duration;
      if (slowed->entry) {
        for (FailureCost& cost : straggler_costs_) {
          if (cost.entry != *slowed->entry) continue;
          ++cost.nodes;
          cost.slowed_compute += duration - task.duration;
        }
        what = "compute (duration x straggler slowdown)";
      }
    }
    schedule_timer(later(node, now, duration, what), Timer::compute_done, node);
    return;
  }
  if (st.acquired) {
    if (st.lit) begin(node, now);
    return;
  }
  st.ready = now;  // a node preconfiguring until now competes as released from here on
  enqueue(node, now);
}

void TaskGraphExecution::cleared(uint32_t node, Time now) {
  // A compute node whose every predecessor is cleared is cleared itself: what
  // it waits for is compute, which holds no port. Along a chain of compute
  // this walks the chain, so with a stack of its own, not by recursion.
  std::vector<uint32_t> stack{node};
  while (!stack.empty()) {
    const uint32_t v = stack.back();
    stack.pop_back();
    if (communicates(v)) {
      // Everything it waits for holds its ports already or is compute: it
      // may take its own now without holding up anything it waits for. It
      // clears its successors when it takes them (acquire).
      if (switch_.preconfigures() && !state_[v].released) enqueue(v, now);
      continue;
    }
    for (uint32_t s : successors_[v]) {
      if (--state_[s].uncleared == 0) stack.push_back(s);
    }
  }
}

TaskGraphExecution::WaitKey TaskGraphExecution::wait_key(uint32_t v) const {
  const NodeState& st = state_[v];
  const bool second_class = fabric_.priority == CommunicationPriority::p2p && graph_.nodes()[v].kind != TaskKind::p2p;
  return WaitKey(st.released ? 0 : 1, second_class ? 1 : 0, st.ready, v);
}

void TaskGraphExecution::unqueue(uint32_t node) {
  std::set<WaitKey>& group = waiting_[port_group_[node]];
  group.erase(wait_key(node));
  if (group.empty()) --waiting_groups_;
  state_[node].queued = false;
}

void TaskGraphExecution::enqueue(uint32_t node, Time now) {
  NodeState& st = state_[node];
  if (!st.queued) {
    st.queued = true;
    st.ready = now;
    std::set<WaitKey>& group = waiting_[port_group_[node]];
    if (group.empty()) {
      ++waiting_groups_;
      if (!in_active_[port_group_[node]]) {
        in_active_[port_group_[node]] = 1;
        active_.push_back(port_group_[node]);
      }
    }
    group.insert(wait_key(node));
  }
  if (!arbitration_pending_) {
    // After every same-time ending already due: equal-time rivals meet here.
    arbitration_pending_ = true;
    schedule_timer(now, Timer::arbitrate, 0);
  }
}

void TaskGraphExecution::arbitrate(Time now) {
  arbitration_pending_ = false;
  // Between nodes with nothing in flight (always, along a chain), the
  // network lets the delivered flows go: memory follows what runs.
  if (driver_.network().all_delivered()) driver_.network().forget_delivered_flows();
  // Waiting nodes take ports in key order, each if all of its ports are
  // free. Nodes wanting the same ports wait in one group, in key order: only
  // a group's first can take them (if it cannot, nor can the rest; if it
  // does, they are taken), so only the groups' firsts are looked at, in key
  // order: the same choices as going through every waiting node.
  std::vector<WaitKey> firsts;
  size_t kept = 0;
  for (uint32_t g : active_) {
    if (waiting_[g].empty()) {
      in_active_[g] = 0;
      continue;
    }
    active_[kept++] = g;
    firsts.push_back(*waiting_[g].begin());
  }
  active_.resize(kept);
  std::sort(firsts.begin(), firsts.end());
  for (const WaitKey& k : firsts) {
    const uint32_t v = std::get<3>(k);
    bool free = true;
    for (uint32_t res : resources_[v]) free = free && held_[res] == 0;
    if (free) acquire(v, now);
  }
}

NodePlacement TaskGraphExecution::placement_for(uint32_t node) const {
  const GraphNodeWork& w = work_[node];
  NodePlacement placement;
  placement.gpu = w.gpus;
  placement.fabric_slots = static_cast<uint32_t>(switch_.slots());
  placement.step_base = step_base_;
  placement.place_base = place_base_;
  for (Node g : w.gpus) {
    for (uint32_t p = 0; p < ports_; ++p) placement.slot.push_back(g * ports_ + p);
  }
  if (graph_.nodes()[node].kind == TaskKind::p2p) {
    // Its one circuit src -> dst, on a working port (a switch that survives
    // the failures known when planning): one already leading there; else a
    // dark one (other circuits keep their ports), with directed circuits
    // first one whose switch has no circuit into dst (its receiver there is
    // free, so no other circuit goes dark); else the first working port.
    // Rotate src's ports so that the schedule's circuit lands on it: the
    // schedule has it on port 0 of its planning fabric, which its CircuitPlan
    // places on the first working port (port 0 when no switch failed).
    const uint32_t planned = working_ports_.front();
    const auto rotate_to = [&](uint32_t p) {
      for (uint32_t q = 0; q < ports_; ++q) {
        placement.slot[q] = w.gpus[0] * ports_ + (q + ports_ - planned + p) % ports_;
      }
    };
    const auto dst = static_cast<int>(w.gpus[1]);
    const auto receiver_free = [&](uint32_t p) {
      if (fabric_.circuits != CircuitKind::directed) return true;
      for (auto x = static_cast<uint32_t>(p); x < switch_.slots(); x += ports_) {
        if (switch_.leads_to(x) == dst) return false;
      }
      return true;
    };
    uint32_t chosen = ports_;
    for (size_t k = 0; k < working_ports_.size() && chosen == ports_; ++k) {
      const uint32_t p = working_ports_[k];
      if (switch_.leads_to(w.gpus[0] * ports_ + p) == dst) chosen = p;
    }
    for (int pass = 0; pass < 2 && chosen == ports_; ++pass) {
      for (size_t k = 0; k < working_ports_.size() && chosen == ports_; ++k) {
        const uint32_t p = working_ports_[k];
        if (switch_.leads_to(w.gpus[0] * ports_ + p) < 0 && (pass == 1 || receiver_free(p))) chosen = p;
      }
    }
    rotate_to(chosen < ports_ ? chosen : planned);
  }
  return placement;
}

void TaskGraphExecution::acquire(uint32_t node, Time now) {
  const NodeScope scope(failed_at_, node);
  NodeState& st = state_[node];
  GraphNodeResult& r = results_[node];
  const GraphNodeWork& w = work_[node];
  unqueue(node);
  st.acquired = true;
  r.acquired = now;
  // It holds every port it needs: what waits for it may take its own.
  for (uint32_t s : successors_[node]) {
    if (--state_[s].uncleared == 0) cleared(s, now);
  }
  if (st.released && now > r.released) {
    for (uint32_t res : resources_[node]) {
      const int by = freed_by_[res];
      if (by >= 0 && (r.held_up_by < 0 ||
                      results_[static_cast<size_t>(by)].end > results_[static_cast<size_t>(r.held_up_by)].end)) {
        r.held_up_by = by;
      }
    }
  }
  for (uint32_t res : resources_[node]) held_[res] = 1;

  st.placement = placement_for(node);
  const NodePlacement& placement = st.placement;
  std::vector<int> want(switch_.slots(), -1);
  st.first_step = step_base_;
  step_base_ += static_cast<uint32_t>(w.schedule->steps().size());
  if (timing_ == GraphTiming::packet) {
    runs_[node] =
        std::make_unique<ScheduleExecution>(driver_, w.fabric, segmentation_, *w.schedule, placement, this, node);
    policy_node_.resize(runs_[node]->policy_id() + 1, -1);
    policy_node_[runs_[node]->policy_id()] = static_cast<int>(node);
    place_base_ += runs_[node]->places();
  } else {
    st.plan = std::make_unique<CircuitPlan>(*w.schedule, w.fabric);
  }
  for (const CircuitChange& c : plan_of(node).initial()) {
    want[placement.slot[c.slot]] = static_cast<int>(w.gpus[static_cast<size_t>(c.to)]);
  }

  // The GPUs whose transmitters (own ports) and receivers it holds.
  const size_t gpus = switch_.slots() / ports_;
  std::vector<char> sends(gpus, 0), receives(gpus, 0), transmitters_held(gpus, 0);
  for (uint32_t res : resources_[node]) ((res & 1U) == 0 ? sends : receives)[res / 2] = 1;
  for (size_t g = 0; g < gpus; ++g) transmitters_held[g] = held_[2 * g];
  const NodeSetup setup = switch_.setup_for(want, sends, receives, transmitters_held);
  st.setup_slots = setup.wanted;
  if (!setup.commands.empty()) {
    // A delay past the simulated time range is refused naming the node.
    later(node, now, switch_.dark_time(setup.commands), "first circuits (fabric.reconfig_delay)");
  }
  const Time lit_at = switch_.set_up(setup, st.first_step, now);
  if (setup.reconfigures) ++r.reconfigurations;
  if (lit_at == now) {
    lit(node, now);
    return;
  }
  schedule_timer(lit_at, Timer::setup_lit, node);
}

void TaskGraphExecution::lit(uint32_t node, Time now) {
  const NodeScope scope(failed_at_, node);
  NodeState& st = state_[node];
  for (uint32_t fs : st.setup_slots) {
    switch_.settle(fs, now);
    if (timing_ == GraphTiming::packet && !driver_.network().lit(fs)) {
      throw std::logic_error("task graph node '" + graph_.nodes()[node].name + "': its circuit on slot " +
                             std::to_string(fs) + " is dark when it starts (an engine invariant)");
    }
  }
  std::vector<uint32_t>().swap(st.setup_slots);
  st.lit = true;
  GraphNodeResult& r = results_[node];
  r.lit = now;
  if (st.released) begin(node, now);
}

void TaskGraphExecution::begin(uint32_t node, Time now) {
  const NodeScope scope(failed_at_, node);
  NodeState& st = state_[node];
  GraphNodeResult& r = results_[node];
  st.started = true;
  r.start = now;
  r.port_wait = std::max(Time::zero(), r.acquired - r.released);
  const Time setup_from = std::max(r.acquired, r.released);
  r.exposed_reconfiguration = std::max(Time::zero(), r.lit - setup_from);
  r.hidden_reconfiguration = (r.lit - r.acquired) - r.exposed_reconfiguration;
  if (timing_ == GraphTiming::analytical) {
    schedule_timer(later(node, now, work_[node].predicted, "predicted time"), Timer::predicted_done, node);
  } else {
    runs_[node]->start(now);
  }
}

const CircuitPlan& TaskGraphExecution::plan_of(uint32_t node) const {
  return state_[node].plan ? *state_[node].plan : runs_[node]->plan();
}

void TaskGraphExecution::on_flow_delivered(uint32_t /*flow*/, Time /*now*/) {
  throw std::logic_error("TaskGraphExecution: a delivery of a flow it did not inject (its nodes inject theirs)");
}

void TaskGraphExecution::on_schedule_done(uint32_t node, Time now) {
  const RunResult own = runs_[node]->result();
  communication_done(node, now, own.reconfigurations, own.reconfiguration_time);
  // Called from inside its run: freed at TaskGraphExecution's next timer after its
  // own last one.
  finished_.push_back(node);
}

void TaskGraphExecution::communication_done(uint32_t node, Time now, int reconfigurations, Time reconfiguration) {
  const NodeScope scope(failed_at_, node);
  GraphNodeResult& r = results_[node];
  r.reconfigurations += reconfigurations;
  r.exposed_reconfiguration += reconfiguration;
  // The circuits it leaves: its first ones changed by each of its groups.
  // A packet run commanded every one of them on the switch; an analytical
  // run only predicted its time, so they are set up here, at no cost.
  const NodePlacement& placement = state_[node].placement;
  const CircuitPlan& plan = plan_of(node);
  std::map<uint32_t, OpticalSwitch::PortCommand> left;  // per fabric slot
  const auto leave = [&](const CircuitChange& c) {
    const int to = c.to < 0 ? -1 : static_cast<int>(placement.gpu[static_cast<size_t>(c.to)]);
    left[placement.slot[c.slot]] = {placement.slot[c.slot], placement.gpu[c.from], to, std::nullopt};
  };
  for (const CircuitChange& c : plan.initial()) leave(c);
  for (const ReconfigurationGroup& g : plan.groups()) {
    for (const CircuitChange& c : g.changes) leave(c);
  }
  for (const auto& [slot, command] : left) {
    if (timing_ == GraphTiming::packet) {
      if (switch_.leads_to(slot) != command.to) {
        throw std::logic_error("task graph node '" + graph_.nodes()[node].name + "' left slot " + std::to_string(slot) +
                               " leading elsewhere than its plan (an engine invariant)");
      }
    } else if (command.to >= 0) {
      switch_.connect(command, now);
    } else if (switch_.leads_to(slot) >= 0) {
      switch_.disconnect(slot, now);
    }
  }
  for (uint32_t res : resources_[node]) {
    held_[res] = 0;
    freed_by_[res] = static_cast<int>(node);
  }
  state_[node].plan.reset();  // an analytical run's
  end(node, now);
  if (waiting_groups_ > 0 && !arbitration_pending_) {
    arbitration_pending_ = true;
    schedule_timer(now, Timer::arbitrate, 0);
  }
}

void TaskGraphExecution::end(uint32_t node, Time now) {
  state_[node].ended = true;
  results_[node].end = now;
  ++ended_nodes_;
  if (progress_ != nullptr) {
    progress_->progressed({timing_ == GraphTiming::packet ? "simulating the iteration (nodes ended)"
                                                          : "predicting the iteration (nodes ended)",
                           static_cast<double>(ended_nodes_), static_cast<double>(state_.size())});
  }
  for (uint32_t s : successors_[node]) {
    if (--state_[s].waiting == 0) release(s, now);
  }
}

void TaskGraphExecution::on_timer(Time now, uint64_t token) {
  // Out of every finished node's callbacks by now: what its run held can go,
  // once no event of its own is left (a reconfiguration still lighting).
  std::erase_if(finished_, [&](uint32_t v) {
    if (runs_[v]->has_pending_timers()) return false;
    runs_[v].reset();
    return true;
  });
  const auto kind = static_cast<Timer>(token >> kTaskTimerShift);
  const auto id = static_cast<uint32_t>(token & ((uint64_t{1} << kTaskTimerShift) - 1));
  switch (kind) {
    case Timer::compute_done:
      end(id, now);
      break;
    case Timer::setup_lit:
      lit(id, now);
      break;
    case Timer::arbitrate:
      arbitrate(now);
      break;
    case Timer::predicted_done: {
      const Schedule& schedule = *work_[id].schedule;
      communication_done(id, now, schedule.reconfigurations(), work_[id].predicted_reconfiguration);
      break;
    }
    default:
      throw std::logic_error("unknown timer");
  }
}

GraphResult run_task_graph(const FabricSpec& fabric, Segmentation segmentation, const TaskGraph& graph,
                           std::vector<GraphNodeWork> work, Timeline* timeline, GraphTiming timing,
                           WorkProgress* progress) {
  RunDriver driver(fabric, segmentation, timeline);
  TaskGraphExecution execution(driver, fabric, segmentation, graph, std::move(work), timing);
  execution.report_to(progress);
  return execution.run();
}

}  // namespace photonsim
