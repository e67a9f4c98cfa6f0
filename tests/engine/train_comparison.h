#pragma once
// Contract: what the train-engine tests share: the random scenario of a seed
// (the reference engine test's draws, then modes and scopes on top) and the
// field-by-field differences of two runs and of two timelines ("" when equal;
// only the events, trains and reused windows may differ).
#include <algorithm>
#include <sstream>
#include <string>

#include "core/rng.h"
#include "sim/engine/schedule_execution.h"
#include "tests/engine/random_schedule.h"

namespace photonsim::train_comparison {

using random_schedules::Scenario;

inline std::string differences(const RunResult& a, const RunResult& b) {
  std::ostringstream out;
  auto field = [&](const char* name, auto x, auto y) {
    if (x != y) out << "  " << name << ": trains " << x << ", reference " << y << "\n";
  };
  field("steps", a.steps.size(), b.steps.size());
  for (size_t i = 0; i < std::min(a.steps.size(), b.steps.size()); ++i) {
    const StepResult& x = a.steps[i];
    const StepResult& y = b.steps[i];
    const std::string s = "step " + std::to_string(i) + " ";
    field((s + "begin").c_str(), x.begin, y.begin);
    field((s + "end").c_str(), x.end, y.end);
    field((s + "reconfiguration").c_str(), x.reconfiguration, y.reconfiguration);
    field((s + "startup").c_str(), x.startup, y.startup);
    field((s + "transfers").c_str(), x.transfers, y.transfers);
    field((s + "bytes").c_str(), x.bytes, y.bytes);
    field((s + "barrier_wait").c_str(), x.barrier_wait, y.barrier_wait);
  }
  field("completion", a.completion, b.completion);
  field("reconfigurations", a.reconfigurations, b.reconfigurations);
  field("reconfiguration_time", a.reconfiguration_time, b.reconfiguration_time);
  field("barrier_wait", a.barrier_wait, b.barrier_wait);
  field("packets", a.network.packets, b.network.packets);
  field("packet_hops", a.network.packet_hops, b.network.packet_hops);
  field("bytes_injected", a.network.bytes_injected, b.network.bytes_injected);
  field("bytes_delivered", a.network.bytes_delivered, b.network.bytes_delivered);
  field("peak_packets_in_flight", a.network.peak_packets_in_flight, b.network.peak_packets_in_flight);
  return out.str();
}

inline std::string differences(const Timeline& a, const Timeline& b) {
  std::ostringstream out;
  if (a.ports.size() != b.ports.size()) out << "  timeline ports: " << a.ports.size() << " vs " << b.ports.size();
  for (size_t p = 0; p < std::min(a.ports.size(), b.ports.size()); ++p) {
    const PortTimeline& x = a.ports[p];
    const PortTimeline& y = b.ports[p];
    bool same = x.gpu == y.gpu && x.port == y.port && x.spans.size() == y.spans.size();
    for (size_t i = 0; same && i < x.spans.size(); ++i) {
      const PortSpan& u = x.spans[i];
      const PortSpan& v = y.spans[i];
      same = u.begin == v.begin && u.end == v.end && u.peer == v.peer && u.step == v.step && u.activity == v.activity;
    }
    if (!same) {
      out << "  timeline of GPU " << x.gpu << " port " << x.port << " differs (" << x.spans.size() << " vs "
          << y.spans.size() << " spans)\n";
      for (const auto* t : {&x, &y}) {
        out << "   ";
        for (size_t i = 0; i < std::min<size_t>(t->spans.size(), 8); ++i) {
          out << " [" << t->spans[i].begin.picoseconds() << "," << t->spans[i].end.picoseconds() << ")"
              << (t->spans[i].activity == PortActivity::busy ? "" : "d") << "p" << t->spans[i].peer << "s"
              << t->spans[i].step;
        }
        out << "\n";
      }
    }
  }
  if (a.transfers.size() != b.transfers.size()) out << "  timeline transfers differ in number\n";
  for (size_t t = 0; t < std::min(a.transfers.size(), b.transfers.size()); ++t) {
    const TransferSpan& x = a.transfers[t];
    const TransferSpan& y = b.transfers[t];
    if (x.released != y.released || x.injected != y.injected || x.delivered != y.delivered) {
      out << "  transfer " << t << " of the timeline differs\n";
    }
  }
  return out.str();
}

// The scenario of `seed`: the reference engine test's draws, then the modes
// and scopes drawn on top of them.
inline Scenario train_scenario(uint64_t seed) {
  random_schedules::ScenarioShape shape;
  shape.min_gpus = 2;
  shape.max_gpus = 7;
  Scenario s = random_schedules::random_scenario(seed, shape);
  Rng rng(seed ^ 0x7a115);
  s.fabric.sync = rng.uniform(2) == 0 ? SyncMode::barrier : SyncMode::dataflow;
  s.fabric.reconfiguration = rng.uniform(2) == 0 ? ReconfigurationScope::all : ReconfigurationScope::changed;
  if (s.fabric.router == RouterMode::store_and_forward && rng.uniform(4) == 0) {
    // Circuits at a share of their GPUs' transmitters: unequal rates.
    s.fabric.bandwidth_scope = BandwidthScope::gpu;
    s.fabric.bandwidth = Bandwidth::bits_per_second(s.fabric.bandwidth.bps() / s.fabric.ports * s.fabric.ports);
  }
  // Longer transfers now and then: trains of many packets that split.
  for (Step& step : s.parts.steps) {
    for (Transfer& t : step.transfers) {
      if (rng.uniform(3) == 0) t.bytes = Bytes(t.bytes.count() * static_cast<int64_t>(1 + rng.uniform(40)));
    }
  }
  return s;
}

}  // namespace photonsim::train_comparison
