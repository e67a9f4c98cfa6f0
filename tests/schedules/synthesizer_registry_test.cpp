#include "schedules/synthesizer_registry.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <memory>
#include <string>

#include "core/error.h"
#include "schedules/algorithms/alltoall_direct.h"
#include "schedules/planners/static_planner.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

FabricSpec synthesizer_registry_fabric(int gpus, int ports = 1) {
  FabricSpec f = testing_support::test_fabric(gpus, ports);
  return f;
}

WorkloadSpec synthesizer_registry_workload(Collective c) { return testing_support::test_workload(c, 4000000); }

SynthesisSpec synthesizer_registry_synthesis(const std::string& algorithm, const std::string& planner,
                                             const std::string& topology) {
  SynthesisSpec s;
  s.algorithm = algorithm;
  s.planner = planner;
  s.topology.type = topology;
  return s;
}

std::string synthesizer_registry_error_of(const FabricSpec& f, const WorkloadSpec& w, const SynthesisSpec& s) {
  try {
    SynthesizerRegistry::with_builtins().synthesize(f, w, s);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(SynthesizerRegistry, BuiltinNamesAndDefaults) {
  const auto r = SynthesizerRegistry::with_builtins();
  auto find_algorithm = [&](const std::string& name) -> const SynthesizerRegistry::AlgorithmEntry* {
    for (const auto& a : r.algorithms()) {
      if (a.info.reads_file) continue;  // needs a file: tests/schedules/msccl/
      if (a.info.name == name) return &a;
    }
    return nullptr;
  };
  // The algorithm library, each with its default planner.
  for (auto [name, planner] :
       {std::pair{"direct", "static"}, std::pair{"ring", "static"}, std::pair{"binomial", "every_step"},
        std::pair{"recursive_doubling", "static"}, std::pair{"recursive_doubling_full", "static"},
        std::pair{"rhd", "static"}, std::pair{"swing", "static"}, std::pair{"bine", "static"},
        std::pair{"bucket", "static"}, std::pair{"bruck_concat", "static"}, std::pair{"bruck", "static"},
        std::pair{"bridge", "static"}, std::pair{"dex", "static"}, std::pair{"retri", "static"},
        std::pair{"binary_tree", "every_step"}}) {
    const auto* a = find_algorithm(name);
    ASSERT_NE(a, nullptr) << name;
    EXPECT_EQ(a->info.default_planner, planner) << name;
  }
  std::vector<std::string> planners;
  for (const auto& p : r.planners()) planners.push_back(p.info.name);
  for (const char* name : {"static", "every_step", "retri_segments", "bridge_segments", "exhaustive"}) {
    EXPECT_NE(std::find(planners.begin(), planners.end(), name), planners.end()) << name;
  }
  EXPECT_EQ(r.topologies().names().substr(0, 24), "none, ring, shifted_ring");
}

TEST(SynthesizerRegistry, UnknownAlgorithmListsValidNames) {
  const std::string msg =
      synthesizer_registry_error_of(synthesizer_registry_fabric(8), synthesizer_registry_workload(Collective::alltoall),
                                    synthesizer_registry_synthesis("greedy", "", "ring"));
  EXPECT_NE(msg.find("synthesis.algorithm"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'greedy'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("direct, ring, binomial"), std::string::npos) << msg;
}

TEST(SynthesizerRegistry, UnknownPlannerListsValidNames) {
  const std::string msg =
      synthesizer_registry_error_of(synthesizer_registry_fabric(8), synthesizer_registry_workload(Collective::alltoall),
                                    synthesizer_registry_synthesis("direct", "matching", "ring"));
  EXPECT_NE(msg.find("synthesis.planner"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'matching'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("static, every_step"), std::string::npos) << msg;
}

TEST(SynthesizerRegistry, CollectiveNotImplementedByAlgorithm) {
  const std::string msg = synthesizer_registry_error_of(synthesizer_registry_fabric(8),
                                                        synthesizer_registry_workload(Collective::broadcast),
                                                        synthesizer_registry_synthesis("ring", "", "ring"));
  EXPECT_NE(msg.find("'ring' does not implement"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'broadcast'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("allreduce, reducescatter, allgather"), std::string::npos) << msg;
}

TEST(SynthesizerRegistry, JointSynthesisRefusesAStaticTopologyItWouldIgnore) {
  SynthesisSpec s = synthesizer_registry_synthesis("rdc", "", "none");
  s.static_topology = TopologySpec{"ring", {}};
  FabricSpec f = synthesizer_registry_fabric(8);
  f.circuits = CircuitKind::directed;
  const std::string msg = synthesizer_registry_error_of(f, synthesizer_registry_workload(Collective::alltoall), s);
  EXPECT_NE(msg.find("synthesis.static_topology: algorithm 'rdc' chooses its own topologies"), std::string::npos)
      << msg;
  s.static_topology.reset();
  EXPECT_EQ(synthesizer_registry_error_of(f, synthesizer_registry_workload(Collective::alltoall), s), "");
}

TEST(SynthesizerRegistry, UnknownTopologyPropagates) {
  const std::string msg =
      synthesizer_registry_error_of(synthesizer_registry_fabric(8), synthesizer_registry_workload(Collective::alltoall),
                                    synthesizer_registry_synthesis("direct", "", "tours"));
  EXPECT_NE(msg.find("unknown topology 'tours'"), std::string::npos) << msg;
}

TEST(SynthesizerRegistry, PlannerOverrideIsRecorded) {
  const Schedule s = SynthesizerRegistry::with_builtins().synthesize(
      synthesizer_registry_fabric(4), synthesizer_registry_workload(Collective::alltoall),
      synthesizer_registry_synthesis("direct", "every_step", "none"));
  EXPECT_EQ(s.planner(), "every_step");
  EXPECT_EQ(s.algorithm(), "direct");
  EXPECT_EQ(s.collective(), Collective::alltoall);
  EXPECT_EQ(s.message(), Bytes(4000000));
  EXPECT_EQ(s.gpus(), 4);
  EXPECT_EQ(s.prediction().steps.size(), s.steps().size());
}

// A component is registered by its type; its name and defaults come from its info().
class Direct2 : public AlltoallDirect {
 public:
  AlgorithmInfo info() const override {
    AlgorithmInfo info = AlltoallDirect::info();
    info.name = "direct2";
    info.default_planner = "static2";
    return info;
  }
};
class Static2 : public StaticPlanner {
 public:
  PlannerInfo info() const override { return {"static2", "copy"}; }
};

TEST(SynthesizerRegistry, CustomEntriesCanBeAdded) {
  auto r = SynthesizerRegistry::with_builtins();
  r.add_algorithm<Direct2>();
  r.add_planner<Static2>();
  const Schedule s = r.synthesize(synthesizer_registry_fabric(4), synthesizer_registry_workload(Collective::alltoall),
                                  synthesizer_registry_synthesis("direct2", "", "ring"));
  EXPECT_EQ(s.algorithm(), "direct2");
  EXPECT_EQ(s.planner(), "static2");
  EXPECT_EQ(s.steps().size(), size_t{3});
}

}  // namespace
}  // namespace photonsim
