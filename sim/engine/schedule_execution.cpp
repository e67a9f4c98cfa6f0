#include "sim/engine/schedule_execution.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/error.h"
#include "sim/engine/barrier_wait.h"
#include "sim/engine/network/packet_limit.h"
#include "sim/engine/network/train_network.h"
#include "sim/engine/reconfiguration_failure_check.h"
#include "schedules/model/step_routes.h"

namespace photonsim {

namespace {

constexpr int kTimerShift = 32;  // a timer token: kind above, its transfer or group below

}  // namespace

ScheduleExecution::ScheduleExecution(RunDriver& driver, const FabricSpec& fabric, Segmentation segmentation,
                                     const Schedule& schedule, NodePlacement placement, ScheduleObserver* observer,
                                     uint32_t node)
    : fabric_(fabric),
      schedule_(schedule),
      barrier_sync_(fabric.sync == SyncMode::barrier),
      segmentation_(segmentation),
      placement_(std::move(placement)),
      observer_(observer),
      node_(node),
      driver_(driver),
      network_(driver.network()),
      switch_(driver.fabric_switch()),
      policy_id_(driver.enlist(*this)),
      plan_(schedule, fabric),
      deps_(schedule, !barrier_sync_) {
  if (!placement_.slot.empty()) {
    local_slot_.assign(placement_.fabric_slots, UINT32_MAX);
    for (uint32_t j = 0; j < placement_.slot.size(); ++j) local_slot_[placement_.slot[j]] = j;
  }

  slots_.resize(plan_.slots());
  const auto& groups = plan_.groups();
  for (uint32_t g = 0; g < groups.size(); ++g) {
    for (const CircuitChange& c : groups[g].changes) {
      slots_[c.slot].change_steps.push_back(static_cast<uint32_t>(groups[g].step));
      slots_[c.slot].change_groups.push_back(g);
    }
  }
  for (SlotState& slot : slots_) slot.uses.assign(slot.change_steps.size() + 1, 0);
  group_waiting_.assign(groups.size(), 0);
  group_waiters_.resize(groups.size());
  group_commanded_at_.assign(groups.size(), Time::zero());
  group_lit_at_.assign(groups.size(), Time::zero());
  for (uint32_t g = 0; g < groups.size(); ++g) {
    group_waiting_[g] = static_cast<uint32_t>(groups[g].changes.size()) + (barrier_sync_ ? 1 : 0);
  }

  // Real transfers in the dependencies' numbering, then one stand-in per
  // empty step so that its reconfiguration and start-up still take time.
  const auto& steps = schedule.steps();
  const size_t real = deps_.transfers();
  transfers_.resize(real);
  empty_flow_uses_.resize(real);
  step_groups_.resize(steps.size());
  uint32_t place = 0;
  step_left_.assign(steps.size(), 0);
  steps_.resize(steps.size());
  step_started_.assign(steps.size(), 0);
  step_place_base_.assign(steps.size(), 0);
  step_uninjected_.assign(steps.size(), 0);
  step_flows_.resize(steps.size());
  step_window_flows_.assign(steps.size(), 0);
  step_closed_.assign(steps.size(), 0);
  std::vector<uint32_t> groups_needed;
  // segment(slot, s) for the step at hand: steps come in order, so each
  // slot's count of changes at or before s only grows.
  std::vector<uint32_t> changes_so_far(slots_.size(), 0);
  auto segment_of = [&](uint32_t slot, size_t s) {
    const std::vector<uint32_t>& changes = slots_[slot].change_steps;
    uint32_t& k = changes_so_far[slot];
    while (k < changes.size() && changes[k] <= s) ++k;
    return k;
  };
  for (size_t s = 0; s < steps.size(); ++s) {
    const Step& step = steps[s];
    StepResult& r = steps_[s];
    r.transfers = step.transfers.size();
    r.startup = fabric.step_overhead;
    step_place_base_[s] = place;
    step_uninjected_[s] = static_cast<uint32_t>(step.transfers.size());
    // Routed here to count what each port carries, and again when the step's
    // first transfer starts: only the steps under way hold their routes.
    std::vector<std::vector<FlowSpec>> flows = route_flows(s);
    for (size_t i = 0; i < flows.size(); ++i) {
      const uint32_t t = deps_.first_of_step(s) + static_cast<uint32_t>(i);
      for (const FlowSpec& spec : flows[i]) {
        ++place;
        r.bytes += spec.bytes.count();
        for (uint32_t slot : spec.route) {
          const uint32_t k = segment_of(slot, s);
          ++slots_[slot].uses[k];
          // A flow of no bytes uses its circuits the moment its transfer starts.
          if (spec.bytes.count() == 0) empty_flow_uses_[t].emplace_back(slot, k);
        }
        if (spec.bytes.count() > 0) {
          ++transfers_[t].flows_left;
          ++step_window_flows_[s];
        }
      }
    }
    for (size_t i = 0; i < step.transfers.size(); ++i) {
      const uint32_t t = deps_.first_of_step(s) + static_cast<uint32_t>(i);
      transfers_[t].data_waiting = barrier_sync_ ? 1 : static_cast<uint32_t>(deps_.waits_for(t).size());
      groups_needed.clear();
      for (const FlowSpec& f : flows[i]) {
        for (uint32_t slot : f.route) {
          const uint32_t k = segment_of(slot, s);
          if (k > 0) groups_needed.push_back(slots_[slot].change_groups[k - 1]);
        }
      }
      std::sort(groups_needed.begin(), groups_needed.end());
      groups_needed.erase(std::unique(groups_needed.begin(), groups_needed.end()), groups_needed.end());
      for (uint32_t g : groups_needed) group_waiters_[g].push_back(t);
      transfers_[t].circuit_waiting = static_cast<uint32_t>(groups_needed.size());
      transfers_[t].step = static_cast<uint32_t>(s);
      step_groups_[s].insert(step_groups_[s].end(), groups_needed.begin(), groups_needed.end());
    }
    step_left_[s] = static_cast<uint32_t>(step.transfers.size());
    if (step.transfers.empty()) {
      // The empty step's stand-in: a transfer of no bytes over every port its
      // reconfiguration changes, so those ports hold its circuits until it ends.
      const auto stand_in_id = static_cast<uint32_t>(transfers_.size());
      TransferState stand_in;
      stand_in.step = static_cast<uint32_t>(s);
      stand_in.data_waiting = barrier_sync_ ? 1 : 0;
      empty_flow_uses_.emplace_back();
      for (uint32_t g : plan_.groups_before(s)) {
        group_waiters_[g].push_back(stand_in_id);
        step_groups_[s].push_back(g);
        for (const CircuitChange& c : groups[g].changes) {
          const uint32_t k = segment_of(c.slot, s);
          ++slots_[c.slot].uses[k];
          empty_flow_uses_.back().emplace_back(c.slot, k);
        }
      }
      stand_in.circuit_waiting = static_cast<uint32_t>(plan_.groups_before(s).size());
      transfers_.push_back(stand_in);
      step_left_[s] = 1;
    }
    std::vector<uint32_t>& waits = step_groups_[s];
    std::sort(waits.begin(), waits.end());
    waits.erase(std::unique(waits.begin(), waits.end()), waits.end());
  }
  places_ = place;
  if (!barrier_sync_) {
    dependent_offsets_.assign(real + 1, 0);
    for (uint32_t t = 0; t < real; ++t) {
      for (uint32_t w : deps_.waits_for(t)) ++dependent_offsets_[w + 1];
    }
    for (size_t i = 1; i <= real; ++i) dependent_offsets_[i] += dependent_offsets_[i - 1];
    dependents_.resize(dependent_offsets_[real]);
    std::vector<uint64_t> fill(dependent_offsets_.begin(), dependent_offsets_.end() - 1);
    for (uint32_t t = 0; t < real; ++t) {
      for (uint32_t w : deps_.waits_for(t)) dependents_[fill[w]++] = t;
    }
  }
}

std::vector<std::vector<FlowSpec>> ScheduleExecution::route_flows(size_t s) const {
  const Step& step = schedule_.steps()[s];
  const Topology& topology = schedule_.topologies()[static_cast<size_t>(step.topology)];
  const std::vector<uint32_t>& slot_of_edge = plan_.slots_of_step(s);
  std::vector<std::vector<FlowSpec>> flows(step.transfers.size());
  uint32_t place = step_place_base_[s];
  for_each_routed_flow(step, topology, s, [&](RoutedFlow&& flow) {
    check_packet_limit(segmentation_, flow.bytes, s, step.transfers[flow.transfer]);
    FlowSpec spec{flow.bytes, std::move(flow.links), static_cast<uint32_t>(s), place++};
    for (uint32_t& edge : spec.route) edge = slot_of_edge[edge];
    flows[flow.transfer].push_back(std::move(spec));
  });
  return flows;
}

size_t ScheduleExecution::last_step_begun() const {
  // The step a barrier replay would be in: the first not yet complete.
  return steps_done_ < steps_.size() ? steps_done_ : (steps_.empty() ? 0 : steps_.size() - 1);
}

uint32_t ScheduleExecution::segment(uint32_t slot, uint32_t step) const {
  const auto& changes = slots_[slot].change_steps;
  return static_cast<uint32_t>(std::upper_bound(changes.begin(), changes.end(), step) - changes.begin());
}

ScheduleExecution::~ScheduleExecution() { driver_.retire(policy_id_); }

void ScheduleExecution::schedule_timer(Time at, Timer kind, uint64_t id) {
  driver_.timer(policy_id_, at, (static_cast<uint64_t>(kind) << kTimerShift) | id);
}

void ScheduleExecution::start(Time now) {
  // Ports whose first change needs no draining may go dark at once; so may a
  // group of no ports (`all` from no circuits to none) unless it waits for a barrier.
  for (uint32_t g = 0; g < group_waiting_.size(); ++g) {
    if (group_waiting_[g] == 0) {
      ++group_waiting_[g];
      group_ready(g, now);
    }
  }
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) slot_drained(slot, now);
  if (barrier_sync_) {
    if (!steps_.empty()) barrier(0, now);
  } else {
    for (uint32_t t = 0; t < transfers_.size(); ++t) {
      if (transfers_[t].data_waiting == 0) data_ready(t, now);
    }
  }
  if (steps_.empty() && observer_ != nullptr) observer_->on_schedule_done(node_, now);
}

RunResult ScheduleExecution::result() {
  RunResult result;
  for (size_t s = 0; s < steps_.size(); ++s) {
    if (step_left_[s] != 0) {
      throw std::logic_error(
          "step " + std::to_string(s) + " cannot finish: " + std::to_string(step_left_[s]) +
          " of its transfers never delivered (an engine invariant; please report it with the schedule)");
    }
    result.completion = std::max(result.completion, steps_[s].end);
    steps_[s].reconfiguration = exposed_reconfiguration(s);
    if (schedule_.reconfigures_before(s)) {
      ++result.reconfigurations;
      result.reconfiguration_time += fabric_.reconfig_delay;
    }
  }
  result.steps = std::move(steps_);
  return result;
}

uint64_t ScheduleExecution::minimum_events(const Schedule& schedule, const Segmentation& segmentation, bool trains) {
  long double events = 0;
  for (const Step& step : schedule.steps()) {
    for (const Transfer& t : step.transfers) {
      const size_t hops = t.path.size() > 1 ? t.path.size() - 1 : 1;
      const long double per_hop =
          trains ? (t.bytes.count() > 0 ? 1.0L : 0.0L) : 2.0L * static_cast<long double>(segmentation.packets(t.bytes));
      events += per_hop * static_cast<long double>(hops);
    }
  }
  return events > 1.8e19L ? UINT64_MAX : static_cast<uint64_t>(events);
}

RunResult run_schedule(const FabricSpec& fabric, const WorkloadSpec& workload, const Schedule& schedule,
                       RunProgress* progress, Timeline* timeline, bool measure_barrier_wait) {
  const Segmentation segmentation(workload.chunk, fabric.packet);
  RunDriver driver(fabric, segmentation, timeline);
  return ScheduleExecution(driver, fabric, segmentation, schedule).run(measure_barrier_wait, progress);
}

RunResult ScheduleExecution::run(bool measure_barrier_wait, RunProgress* progress) {
  check_reconfiguration_failures(schedule_, fabric_, &plan_);
  if (progress != nullptr) {
    const bool trains = fabric_.packet_engine == PacketEngine::trains && TrainNetwork::exact_on(fabric_);
    progress->starting(minimum_events(schedule_, segmentation_, trains), steps_.size());
  }
  for (const CircuitChange& c : plan_.initial()) connect(c, Time::zero());
  start(Time::zero());
  if (progress == nullptr) {
    driver_.run();
  } else {
    // Every 2^20 events; after each step but the last, transfer_delivered.
    progress_ = progress;
    driver_.run([&](uint64_t fired) { progress->advanced(last_step_begun(), steps_.size(), fired); });
    progress_ = nullptr;
    progress->advanced(last_step_begun(), steps_.size(), driver_.events_fired());
  }
  RunResult result = this->result();
  if (measure_barrier_wait && barrier_sync_) {
    // What each transfer waited for had the run been dataflow: asked for only here.
    const TransferDependencies waits(schedule_);
    std::vector<Time> delivered(deps_.transfers());
    for (uint32_t t = 0; t < deps_.transfers(); ++t) delivered[t] = transfers_[t].delivered;
    BarrierWait wait = photonsim::measure_barrier_wait(waits, delivered, result.steps);
    for (size_t i = 0; i < result.steps.size(); ++i) result.steps[i].barrier_wait = wait.per_step[i];
    result.barrier_wait = wait.total;
  }
  if (TimelineRecorder* recorder = driver_.recorder()) {
    for (uint32_t t = 0; t < deps_.transfers(); ++t) {
      const TransferState& st = transfers_[t];
      const uint32_t s = deps_.step_of(t);
      const Transfer& tr = schedule_.steps()[s].transfers[t - deps_.first_of_step(s)];
      recorder->transfer(
          TransferSpan{tr.src, tr.dst, s, t - deps_.first_of_step(s), st.released, st.injected, st.delivered});
    }
  }
  result.network = driver_.finish();
  result.events = driver_.events_fired();
  for (const SlowReconfiguration& slow : switch_.slow_reconfigurations()) {
    FailureCost cost = no_cost_yet(slow.entry, FailureKind::reconfiguration);
    cost.commands = slow.commands;
    cost.extra_dark = slow.extra_dark;
    result.failures.push_back(cost);
  }
  add_lost_circuit_costs(fabric_.failures, result.network, result.failures);
  return result;
}

void ScheduleExecution::connect(const CircuitChange& change, Time now) {
  switch_.connect({fabric_slot(change.slot), fabric_gpu(change.from),
                   static_cast<int>(fabric_gpu(static_cast<Node>(change.to))), change.rate},
                  now);
}

bool ScheduleExecution::starts_at_one_instant(uint32_t step, Time now) const {
  // Each transfer starts once the last group it waits for has lit; groups
  // commanded by now say when.
  const uint32_t first = deps_.first_of_step(step);
  const uint32_t end = deps_.first_of_step(step + 1);
  if (first == end) return false;
  std::vector<Time> starts(end - first, now);
  for (uint32_t g : step_groups_[step]) {
    if (group_waiting_[g] > 0) return false;  // not commanded yet
    for (uint32_t t : group_waiters_[g]) {
      if (t >= first && t < end) starts[t - first] = std::max(starts[t - first], group_lit_at_[g]);
    }
  }
  return std::all_of(starts.begin(), starts.end(), [&](Time at) { return at == starts.front(); });
}

void ScheduleExecution::barrier(uint32_t step, Time now) {
  steps_[step].begin = now;
  for (uint32_t g : plan_.groups_before(step)) group_ready(g, now);
  const uint32_t first = deps_.first_of_step(step);
  const uint32_t end = deps_.first_of_step(step + 1);
  // Under the barrier nothing else of this run crosses the step's circuits
  // until the next barrier, nor changes them (groups are commanded at
  // barriers): when its transfers all start at one instant, its flows are a
  // closed window (FlowSpec::window).
  step_closed_[step] = step_window_flows_[step] > 0 && starts_at_one_instant(step, now) ? 1 : 0;
  for (uint32_t t = first; t < end; ++t) data_ready(t, now);
  if (first == end) {
    // The empty step's stand-in.
    for (uint32_t t = static_cast<uint32_t>(deps_.transfers()); t < transfers_.size(); ++t) {
      if (transfers_[t].step == step) data_ready(t, now);
    }
  }
}

void ScheduleExecution::data_ready(uint32_t transfer, Time now) {
  TransferState& t = transfers_[transfer];
  if (t.data_waiting > 0 && --t.data_waiting > 0) return;
  t.released = now;
  if (t.circuit_waiting == 0) inject(transfer, now);
}

void ScheduleExecution::circuit_ready(uint32_t transfer, Time now) {
  TransferState& t = transfers_[transfer];
  if (--t.circuit_waiting > 0 || t.data_waiting > 0) return;
  inject(transfer, now);
}

void ScheduleExecution::inject(uint32_t transfer, Time now) {
  TransferState& t = transfers_[transfer];
  t.injected = now + fabric_.step_overhead;
  StepResult& r = steps_[t.step];
  if (!barrier_sync_ && (!step_started_[t.step] || t.released < r.begin)) r.begin = t.released;
  step_started_[t.step] = 1;
  std::vector<FlowSpec> flows;
  if (transfer < deps_.transfers()) {
    std::vector<std::vector<FlowSpec>>& step_flows = step_flows_[t.step];
    if (step_flows.empty()) step_flows = route_flows(t.step);
    flows = std::move(step_flows[transfer - deps_.first_of_step(t.step)]);
    if (--step_uninjected_[t.step] == 0) std::vector<std::vector<FlowSpec>>().swap(step_flows);
  }
  if (t.flows_left == 0) {
    schedule_timer(t.injected, Timer::transfer_done, transfer);
    return;
  }
  if (!placement_.slot.empty()) {
    for (FlowSpec& f : flows) {
      for (uint32_t& slot : f.route) slot = fabric_slot(slot);
      f.step += placement_.step_base;
      f.place += placement_.place_base;
    }
  }
  if (step_closed_[t.step]) {
    const uint64_t window = ((static_cast<uint64_t>(policy_id_) + 1) << 32) | t.step;
    for (FlowSpec& f : flows) {
      if (f.bytes.count() == 0) continue;
      f.window = window;
      f.window_flows = step_window_flows_[t.step];
    }
  }
  const size_t count = flows.size();
  const uint32_t first = driver_.inject(policy_id_, std::move(flows), t.injected);
  if (flow_transfer_.empty()) first_flow_ = first;  // a graph's other nodes hold the flows before
  flow_transfer_.resize(first - first_flow_ + count, transfer);
}

void ScheduleExecution::on_flow_delivered(uint32_t flow, Time now) {
  const uint32_t transfer = flow_transfer_[flow - first_flow_];
  TransferState& t = transfers_[transfer];
  for (uint32_t fabric : network_.flow_route(flow)) {
    const uint32_t slot = local_slot(fabric);
    const uint32_t k = segment(slot, t.step);
    if (--slots_[slot].uses[k] == 0 && k == slots_[slot].commanded) slot_drained(slot, now);
  }
  if (--transfers_[transfer].flows_left == 0) transfer_delivered(transfer, now);
}

void ScheduleExecution::transfer_delivered(uint32_t transfer, Time now) {
  TransferState& t = transfers_[transfer];
  t.delivered = now;
  if (transfer < empty_flow_uses_.size()) {
    for (const auto& [slot, k] : empty_flow_uses_[transfer]) {
      if (--slots_[slot].uses[k] == 0 && k == slots_[slot].commanded) slot_drained(slot, now);
    }
  }
  StepResult& r = steps_[t.step];
  r.end = std::max(r.end, now);
  if (!barrier_sync_ && transfer < deps_.transfers()) {
    for (uint64_t i = dependent_offsets_[transfer]; i < dependent_offsets_[transfer + 1]; ++i) {
      data_ready(dependents_[i], now);
    }
  }
  if (step_left_[t.step] == 1 && ++steps_done_ < steps_.size() && progress_ != nullptr) {
    progress_->advanced(steps_done_ - 1, steps_.size(), driver_.events_fired());
  }
  if (--step_left_[t.step] == 0 && barrier_sync_ && t.step + 1 < steps_.size()) barrier(t.step + 1, now);
  if (steps_done_ == steps_.size() && observer_ != nullptr) observer_->on_schedule_done(node_, now);
}

void ScheduleExecution::slot_drained(uint32_t slot, Time now) {
  const SlotState& s = slots_[slot];
  if (s.commanded < s.change_steps.size() && s.uses[s.commanded] == 0) group_ready(s.change_groups[s.commanded], now);
}

void ScheduleExecution::group_ready(uint32_t group, Time now) {
  if (--group_waiting_[group] > 0) return;
  // Every port of the group is commanded now, as one switch command; each
  // lights when the switch says unless a later group commands it again first.
  const ReconfigurationGroup& g = plan_.groups()[group];
  group_commanded_at_[group] = now;
  const auto step = placement_.step_base + static_cast<uint32_t>(g.step);
  std::vector<OpticalSwitch::PortCommand> ports;
  ports.reserve(g.changes.size());
  for (const CircuitChange& c : g.changes) {
    const int to = c.to >= 0 ? static_cast<int>(fabric_gpu(static_cast<Node>(c.to))) : -1;
    ports.push_back({fabric_slot(c.slot), fabric_gpu(c.from), to, c.rate});
  }
  group_lit_at_[group] = switch_.command(ports, step, now);
  schedule_timer(group_lit_at_[group], Timer::group_lit, group);
  // A port whose new circuit nobody uses is ready for its next change at once.
  for (const CircuitChange& c : g.changes) {
    ++slots_[c.slot].commanded;
    slot_drained(c.slot, now);
  }
}

void ScheduleExecution::group_lit(uint32_t group, Time now) {
  const ReconfigurationGroup& g = plan_.groups()[group];
  for (const CircuitChange& c : g.changes) switch_.settle(fabric_slot(c.slot), now);
  for (uint32_t t : group_waiters_[group]) circuit_ready(t, now);
  group_waiters_[group].clear();
}

Time ScheduleExecution::exposed_reconfiguration(size_t step) const {
  // The union of [command, lit] over the groups the step's transfers wait
  // for, within the step's span.
  const StepResult& r = steps_[step];
  std::vector<std::pair<Time, Time>> spans;
  for (uint32_t g : step_groups_[step]) {
    const Time from = std::max(group_commanded_at_[g], r.begin);
    const Time to = std::min(group_lit_at_[g], r.end);
    if (from < to) spans.emplace_back(from, to);
  }
  std::sort(spans.begin(), spans.end());
  Time exposed = Time::zero(), covered = r.begin;
  for (const auto& [from, to] : spans) {
    if (to <= covered) continue;
    exposed += to - std::max(from, covered);
    covered = to;
  }
  return exposed;
}

void ScheduleExecution::on_timer(Time now, uint64_t token) {
  const auto kind = static_cast<Timer>(token >> kTimerShift);
  const uint64_t id = token & ((uint64_t{1} << kTimerShift) - 1);
  switch (kind) {
    case Timer::group_lit:
      group_lit(static_cast<uint32_t>(id), now);
      break;
    case Timer::transfer_done:
      transfer_delivered(static_cast<uint32_t>(id), now);
      break;
    default:
      throw std::logic_error("unknown timer");
  }
}

}  // namespace photonsim
