// for_each_strategy() hands out exactly what strategies() returns, in the same
// order: every registered joint synthesizer, uniform and Zipf flows, one and
// two ports, rdc with and without round merging, one d asked for or all.
#include <gtest/gtest.h>

#include "core/spec/flow_sizes.h"
#include "schedules/synthesizer_registry.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

using testing_support::test_fabric;
using testing_support::test_workload;
using testing_support::with_chunk;
using testing_support::with_distribution;

std::string strategy_streaming_describe(const AlltoallStrategy& s) {
  std::string out = s.construction + " d=" + std::to_string(s.configurations()) + ":";
  for (const Topology& t : s.topologies) out += " " + t.name() + "/" + std::to_string(t.edges().size());
  for (const StrategyRound& r : s.rounds) {
    out += " |" + std::to_string(r.topology);
    for (const StrategyFlow& f : r.flows) {
      out += " " + std::to_string(f.src) + ">" + std::to_string(f.dst) + ":" + std::to_string(f.bytes.count());
      for (const Route& route : f.routes) out += "/" + std::to_string(route.path.size());
    }
  }
  return out;
}

void expect_same_stream(const JointSynthesizer& synthesizer, const JointInput& input, std::optional<int> only,
                        const std::string& what) {
  std::vector<std::string> listed, streamed;
  for (const AlltoallStrategy& s : synthesizer.strategies(input, only))
    listed.push_back(strategy_streaming_describe(s));
  synthesizer.for_each_strategy(input, only,
                                [&](AlltoallStrategy&& s) { streamed.push_back(strategy_streaming_describe(s)); });
  EXPECT_EQ(streamed, listed) << what;
  if (!only) {
    EXPECT_FALSE(listed.empty()) << what;
  }
}

TEST(StrategyStreaming, EveryJointSynthesizerStreamsWhatItLists) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  for (int ports : {1, 2}) {
    for (FlowDistribution distribution : {FlowDistribution::uniform, FlowDistribution::zipf}) {
      const int n = 12;
      const FabricSpec f = test_fabric(n, ports);
      const WorkloadSpec w =
          with_distribution(with_chunk(test_workload(Collective::alltoall, 1'000'000), 250'000), distribution);
      const std::vector<Bytes> demand = alltoall_flow_sizes(w, n, 3);
      for (const auto& algorithm : registry.algorithms()) {
        if (algorithm.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
        if (!algorithm.is_joint()) continue;
        for (const char* merge : {"false", "true"}) {
          std::map<std::string, std::string> raw;
          if (algorithm.info.name == "rdc") raw["merge"] = merge;
          const ComponentParams params(algorithm.info.name, raw, algorithm.info.parameters, "algorithm");
          const JointInput input{f, w, demand, params, 3};
          const std::string what = algorithm.info.name + " k=" + std::to_string(ports) + " merge=" + merge +
                                   " distribution=" + to_string(distribution);
          expect_same_stream(*algorithm.joint, input, std::nullopt, what);
          expect_same_stream(*algorithm.joint, input, 2, what + " only d=2");
          if (algorithm.info.name != "rdc") break;
        }
      }
    }
  }
}

}  // namespace
}  // namespace photonsim
