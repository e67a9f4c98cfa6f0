// No joint strategy beats the all-to-all paper's lower bound: for every
// registered joint synthesizer whose rounds are contention-free, every
// strategy it builds has hop_sum() >= transmission_lower_bound(n, k, d), its
// rounds really are contention-free, and its topologies fit the ports.
#include <gtest/gtest.h>

#include "core/spec/flow_sizes.h"
#include "schedules/alltoall/reconfiguration_bound.h"
#include "schedules/synthesizer_registry.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

void check_all(int n, int k, bool check_rounds) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  FabricSpec f = testing_support::test_fabric(n, k);
  const WorkloadSpec w = testing_support::test_workload(Collective::alltoall, 4'000'000);
  const std::vector<Bytes> demand = alltoall_flow_sizes(w, n, 1);
  for (const auto& algorithm : registry.algorithms()) {
    if (algorithm.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
    if (!algorithm.is_joint()) continue;
    const ComponentParams params(algorithm.info.name, {}, algorithm.info.parameters, "algorithm");
    const JointInput input{f, w, demand, params, 1};
    for (const AlltoallStrategy& s : algorithm.joint->strategies(input, std::nullopt)) {
      const std::string what = algorithm.info.name + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
                               " d=" + std::to_string(s.configurations());
      for (const Topology& t : s.topologies) EXPECT_NO_THROW(t.check_ports(f)) << what;
      if (!s.contention_free_rounds) continue;
      EXPECT_GE(s.hop_sum(), transmission_lower_bound(n, k, s.configurations())) << what;
      if (!check_rounds) continue;
      for (const StrategyRound& r : s.rounds) {
        ASSERT_TRUE(contention_free(r, s.topologies[static_cast<size_t>(r.topology)])) << what;
      }
    }
  }
}

TEST(JointBound, NoStrategyBeatsTheoremOneForOnePort) {
  // Every n <= 24, then a few larger (ring_shift_search_test sweeps rdc's hop sums for every n <= 64).
  for (int n = 2; n <= 24; ++n) check_all(n, 1, true);
  for (int n : {31, 48, 64}) check_all(n, 1, false);
}

TEST(JointBound, NoStrategyBeatsTheMooreBoundForTwoAndThreePorts) {
  for (int n : {4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 24, 32}) check_all(n, 2, n <= 16);
  for (int n : {5, 8, 12, 16}) check_all(n, 3, true);
}

}  // namespace
}  // namespace photonsim
