#include "sim/engine/replayer.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/error.h"
#include "core/event_list.h"
#include "schedules/model/step_routes.h"
#include "sim/engine/barrier_wait.h"
#include "sim/engine/dependency_run.h"
#include "sim/engine/network/network.h"
#include "sim/engine/network/packet_limit.h"
#include "sim/engine/switch/optical_switch.h"

namespace photonsim {

namespace {

std::string describe_stuck(const Step& step, const std::vector<size_t>& stuck) {
  std::string out;
  for (size_t i = 0; i < stuck.size() && i < 5; ++i) {
    const Transfer& t = step.transfers[stuck[i]];
    out += (i ? ", " : "") + std::to_string(t.src) + "->" + std::to_string(t.dst);
  }
  if (stuck.size() > 5) out += ", ... (" + std::to_string(stuck.size()) + " in all)";
  return out;
}

// Every port of the new configuration is dark from the barrier for the switch's delay.
void record_dark(TimelineRecorder& recorder, const Topology& topology, size_t step, Time begin, Time delay) {
  std::vector<uint32_t> ports_used(static_cast<size_t>(topology.gpus()), 0);
  for (const auto& [from, to] : topology.edges()) {
    recorder.dark(from, ports_used[from]++, to, static_cast<uint32_t>(step), begin, begin + delay);
  }
}

// Scope `all`: every port holding a circuit before or after goes dark, one
// command: per GPU, the more of its circuits out before and after.
size_t ports_reconfigured(const Topology* before, const Topology& after) {
  std::vector<size_t> out(static_cast<size_t>(after.gpus()), 0), out_before(out.size(), 0);
  for (const auto& edge : after.edges()) ++out[edge.first];
  if (before != nullptr) {
    for (const auto& edge : before->edges()) ++out_before[edge.first];
  }
  size_t ports = 0;
  for (size_t u = 0; u < out.size(); ++u) ports += std::max(out[u], out_before[u]);
  return ports;
}

}  // namespace

uint64_t Replayer::minimum_events(const Schedule& schedule) const {
  const Segmentation segmentation(workload_.chunk, fabric_.packet);
  long double events = 0;
  for (const Step& step : schedule.steps()) {
    for (const Transfer& t : step.transfers) {
      const size_t hops = t.path.size() > 1 ? t.path.size() - 1 : 1;
      events += 2.0L * static_cast<long double>(segmentation.packets(t.bytes)) * static_cast<long double>(hops);
    }
  }
  return events > 1.8e19L ? UINT64_MAX : static_cast<uint64_t>(events);
}

RunResult Replayer::replay(const Schedule& schedule, RunProgress* progress, Timeline* timeline,
                           bool measure_barrier_wait) const {
  if (schedule.gpus() != fabric_.gpus) {
    throw Error("schedule has " + std::to_string(schedule.gpus()) + " GPUs but fabric.gpus is " +
                std::to_string(fabric_.gpus));
  }
  for (const Topology& t : schedule.topologies()) t.check_ports(fabric_);
  const Segmentation segmentation(workload_.chunk, fabric_.packet);
  if (fabric_.sync != SyncMode::barrier || fabric_.reconfiguration != ReconfigurationScope::all) {
    DependencyRun run(fabric_, segmentation, schedule, timeline);
    if (progress != nullptr) progress->starting(minimum_events(schedule), schedule.steps().size());
    return run.run(measure_barrier_wait, progress);
  }
  std::optional<TransferDependencies> deps;
  std::vector<Time> transfer_delivered;  // measure_barrier_wait: per transfer
  if (measure_barrier_wait) {
    deps.emplace(schedule);
    transfer_delivered.assign(deps->transfers(), Time::zero());
  }

  EventList events;
  Network network(fabric_, segmentation, events);
  const OpticalSwitch fabric_switch(fabric_);
  std::optional<TimelineRecorder> recorder;
  if (timeline != nullptr) recorder.emplace(*timeline, fabric_.gpus, fabric_.ports);
  network.record_into(recorder ? &*recorder : nullptr);
  const size_t steps = schedule.steps().size();
  if (progress != nullptr) progress->starting(minimum_events(schedule), steps);
  RunResult result;
  const Topology* installed = nullptr;
  const Topology* in_place = schedule.initial_topology() >= 0
                                 ? &schedule.topologies()[static_cast<size_t>(schedule.initial_topology())]
                                 : nullptr;
  for (size_t s = 0; s < schedule.steps().size(); ++s) {
    const Step& step = schedule.steps()[s];
    const Topology& topology = schedule.topologies()[static_cast<size_t>(step.topology)];
    std::vector<RoutedFlow> routed = route_step(step, topology, s);

    StepResult r;
    r.begin = events.now();
    if (schedule.reconfigures_before(s)) {
      r.reconfiguration = fabric_switch.dark_time(ports_reconfigured(in_place, topology));
      ++result.reconfigurations;
      result.reconfiguration_time += fabric_.reconfig_delay;
    }
    in_place = &topology;
    if (installed == nullptr || !(*installed == topology)) {
      network.install(topology);
      installed = &topology;
    }
    if (timeline != nullptr && r.reconfiguration > Time::zero())
      record_dark(*recorder, topology, s, r.begin, r.reconfiguration);
    r.startup = fabric_.step_overhead;
    const Time inject_at = r.begin + r.reconfiguration + r.startup;

    std::vector<FlowSpec> flows;
    flows.reserve(routed.size());
    std::vector<size_t> flow_transfer;
    for (RoutedFlow& flow : routed) {
      flow_transfer.push_back(flow.transfer);
      check_packet_limit(segmentation, flow.bytes, s, step.transfers[flow.transfer]);
      r.bytes += flow.bytes.count();
      const auto place = static_cast<uint32_t>(flows.size());
      flows.push_back(FlowSpec{flow.bytes, std::move(flow.links), static_cast<uint32_t>(s), place});
    }
    r.transfers = step.transfers.size();
    network.start_flows(std::move(flows), inject_at);
    if (progress == nullptr) {
      events.run();
    } else {
      for (uint64_t fired = 1; events.step(); ++fired) {
        if ((fired & 0xfffff) == 0) progress->advanced(s, steps, events.fired());
      }
      progress->advanced(s, steps, events.fired());
    }
    if (!network.all_delivered()) {
      std::vector<size_t> stuck;
      for (size_t f : network.undelivered_flows()) stuck.push_back(flow_transfer[f]);
      stuck.erase(std::unique(stuck.begin(), stuck.end()), stuck.end());
      // Routes, ports and sizes were checked before the step began, so no
      // schedule can cause this: it is the engine's invariant (exit 3).
      throw std::logic_error("step " + std::to_string(s) + " cannot finish: transfers " + describe_stuck(step, stuck) +
                             " never delivered (an engine invariant; please report it with the schedule)");
    }
    network.check_conservation();
    r.end = network.finished_at();
    result.steps.push_back(r);
    if (deps) {
      const uint32_t first = deps->first_of_step(s);
      for (uint32_t t = first; t < deps->first_of_step(s + 1); ++t) transfer_delivered[t] = inject_at;
      for (size_t f = 0; f < flow_transfer.size(); ++f) {
        Time& d = transfer_delivered[first + flow_transfer[f]];
        d = std::max(d, network.flow_delivered_at(static_cast<uint32_t>(f)));
      }
    }
    if (timeline != nullptr) {
      for (size_t f = 0; f < flow_transfer.size(); ++f) {
        const Transfer& t = step.transfers[flow_transfer[f]];
        const Time delivered = network.flow_delivered_at(static_cast<uint32_t>(f));
        TransferSpan* last = recorder->transfers().empty() ? nullptr : &recorder->transfers().back();
        if (last != nullptr && last->step == s && last->transfer == flow_transfer[f]) {
          last->delivered = std::max(last->delivered, delivered);  // one more route of a split transfer
          continue;
        }
        recorder->transfer(TransferSpan{t.src, t.dst, static_cast<uint32_t>(s), static_cast<uint32_t>(flow_transfer[f]),
                                        r.begin, inject_at, delivered});
      }
    }
  }
  if (recorder) recorder->finish();
  if (deps) {
    BarrierWait wait = photonsim::measure_barrier_wait(*deps, transfer_delivered, result.steps);
    for (size_t i = 0; i < result.steps.size(); ++i) result.steps[i].barrier_wait = wait.per_step[i];
    result.barrier_wait = wait.total;
  }
  result.completion = result.steps.empty() ? Time::zero() : result.steps.back().end;
  result.events = events.fired();
  result.network = network.stats();
  if (result.network.bytes_injected != result.network.bytes_delivered) {
    throw std::logic_error("bytes injected (" + std::to_string(result.network.bytes_injected) +
                           ") != bytes delivered (" + std::to_string(result.network.bytes_delivered) + ")");
  }
  return result;
}

}  // namespace photonsim
