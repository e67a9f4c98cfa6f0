// Every registered algorithm (pattern algorithms with the planner every_step,
// joint synthesizers with their own) at every n in 2..130 on one port: where
// its supports(n, 1) holds, the schedule is proven by the block verifier;
// where it does not, synthesis is refused with an Error naming n. The cases
// come from the registry, so a newly registered algorithm is covered without
// editing this file.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/error.h"
#include "schedules/synthesizer_registry.h"
#include "schedules/verify/block_verifier.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

struct Range {
  std::string algorithm;
  int first_n;
  int last_n;
};

void PrintTo(const Range& r, std::ostream* out) { *out << r.algorithm << " n=" << r.first_n << ".." << r.last_n; }

// Ranges of 8 sizes, so that ctest spreads the slow joint syntheses over
// both cores and no case nears ctest's 300 s limit under the sanitizers
// (rdc at n = 122..130 is the slowest: about 7 s plain, 2 min with ASan).
std::vector<Range> ranges() {
  std::vector<Range> out;
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  for (const auto& entry : registry.algorithms()) {
    if (entry.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
    for (int first = 2; first <= 130; first += 8) out.push_back({entry.info.name, first, std::min(first + 7, 130)});
  }
  return out;
}

class EveryAlgorithmVerified : public testing::TestWithParam<Range> {};

FabricSpec fabric_of(int n) {
  FabricSpec f = testing_support::test_fabric(n);
  f.reconfig_delay = Time::us(1);
  return f;
}

TEST_P(EveryAlgorithmVerified, ProvenWhereSupportedRefusedNamingNElsewhere) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  const SynthesizerRegistry::AlgorithmEntry& algorithm = registry.algorithm(GetParam().algorithm);
  int proven = 0;
  for (Collective collective : algorithm.info.collectives) {
    for (int n = GetParam().first_n; n <= GetParam().last_n; ++n) {
      const FabricSpec f = fabric_of(n);
      const WorkloadSpec w = testing_support::test_workload(collective, int64_t{1000} * n, n - 1);
      SynthesisSpec s;
      s.algorithm = algorithm.info.name;
      if (!algorithm.is_joint()) s.planner = "every_step";
      const std::string what = algorithm.info.name + " / " + to_string(collective) + " / n=" + std::to_string(n);
      std::optional<Schedule> schedule;
      std::string refusal;
      try {
        schedule = registry.synthesize(f, w, s);
      } catch (const Error& e) {
        refusal = e.what();
      }
      if (!algorithm.supports(n, f.ports)) {
        EXPECT_FALSE(schedule) << what << ": supports() says no, but it synthesized";
        EXPECT_NE(refusal.find("n = " + std::to_string(n)), std::string::npos)
            << what << ": refused without naming n: " << refusal;
        continue;
      }
      ASSERT_TRUE(schedule) << what << ": supports() says yes, but: " << refusal;
      const Verification v = verify_schedule(*schedule);
      EXPECT_TRUE(v.ok()) << what << ": " << (v.ok() ? "" : v.violation->describe());
      ++proven;
    }
  }
  std::cout << "[ proven   ] " << proven << " schedules\n";
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryAlgorithmVerified, testing::ValuesIn(ranges()),
                         [](const testing::TestParamInfo<Range>& case_info) {
                           return case_info.param.algorithm + "_n" + std::to_string(case_info.param.first_n) + "_to_" +
                                  std::to_string(case_info.param.last_n);
                         });

}  // namespace
}  // namespace photonsim
