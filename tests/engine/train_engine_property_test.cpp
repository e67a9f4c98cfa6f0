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
#include "tests/engine/train_comparison.h"

namespace photonsim {
namespace {

using random_schedules::Scenario;
using train_comparison::differences;
using train_comparison::train_scenario;

constexpr uint64_t kTrainCases = 6000;

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
