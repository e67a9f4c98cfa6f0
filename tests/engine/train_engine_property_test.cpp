// The train engine (TrainNetwork, fidelity packet) against the packet-by-packet
// reference (Network, fidelity packet_reference) on random schedules: every
// router mode, egress order, sync mode, reconfiguration scope, bandwidth
// scope, packet and chunk sizes that do and do not divide. Every field of the
// result and of the timeline must be equal; only the events may differ.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/rng.h"
#include "sim/engine/network/train_network.h"
#include "sim/engine/schedule_execution.h"
#include "tests/engine/random_schedule.h"

namespace photonsim {
namespace {

using random_schedules::Scenario;

constexpr uint64_t kTrainCases = 6000;

std::string differences(const RunResult& a, const RunResult& b) {
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

std::string differences(const Timeline& a, const Timeline& b) {
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
Scenario train_scenario(uint64_t seed) {
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

TEST(TrainEngine, AgreesWithThePacketByPacketReferenceFieldByFieldOnRandomSchedules) {
  uint64_t packet_hops = 0;
  uint64_t trains_events = 0;
  uint64_t reference_events = 0;
  uint64_t reference_only = 0;  // forwarding with no delay: the packet engine runs the reference
  std::vector<uint64_t> failed;
  std::string first_failure;
  for (uint64_t seed = 1; seed <= kTrainCases; ++seed) {
    const Scenario s = train_scenario(seed);
    const Schedule schedule{ScheduleParts(s.parts)};
    FabricSpec reference_fabric = s.fabric;
    reference_fabric.packet_engine = PacketEngine::reference;
    FabricSpec trains_fabric = s.fabric;
    trains_fabric.packet_engine = PacketEngine::trains;
    Timeline reference_timeline;
    Timeline trains_timeline;
    const RunResult expected = run_schedule(reference_fabric, s.workload, schedule, nullptr, &reference_timeline, true);
    RunResult got;
    try {
      got = run_schedule(trains_fabric, s.workload, schedule, nullptr, &trains_timeline, true);
    } catch (const std::exception& e) {
      FAIL() << "seed " << seed << ": " << e.what() << "\n" << s.describe();
    }
    const std::string diff = differences(got, expected) + differences(trains_timeline, reference_timeline);
    if (!diff.empty()) {
      failed.push_back(seed);
      if (first_failure.empty()) first_failure = "seed " + std::to_string(seed) + "\n" + diff + s.describe();
    }
    packet_hops += expected.network.packet_hops;
    if (!TrainNetwork::exact_on(s.fabric)) ++reference_only;
    trains_events += got.events;
    reference_events += expected.events;
  }
  std::ostringstream seeds;
  for (const uint64_t seed : failed) seeds << " " << seed;
  EXPECT_TRUE(failed.empty()) << failed.size() << " schedules differ:" << seeds.str() << "\nthe first:\n"
                              << first_failure;
  EXPECT_GT(packet_hops, kTrainCases * 10);
  EXPECT_LT(reference_only * 10, kTrainCases);  // the trains run nearly all of them
  std::cout << packet_hops << " packet-hops in " << kTrainCases << " schedules (" << reference_only
            << " with no forwarding delay, on the reference): " << trains_events << " events with trains, "
            << reference_events << " packet by packet\n";
}

}  // namespace
}  // namespace photonsim
