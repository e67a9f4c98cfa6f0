// Planners on fabric.physical: a configuration the hardware cannot route is
// never in a schedule. PCCL keeps a ring where a round's own circuits would
// need more fibers than a server edge has (and takes them when the fibers
// are there), Harvest's candidates are filtered the same way, every_step and
// static, which have no choice, are refused naming the configuration and the
// constraint, and a joint all-to-all keeps only d whose topologies exist.
#include <gtest/gtest.h>

#include "core/error.h"
#include "schedules/synthesis/physical_feasibility.h"
#include "schedules/synthesizer_registry.h"
#include "schedules/verify/block_verifier.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

// 16 GPUs on a 2x2 grid of servers, 4 tiles each: RHD pairs u with u xor 8
// (servers 0 <-> 2, four circuits each way), xor 4 (0 <-> 1), then inside servers.
FabricSpec physical_fabric(int fibers) {
  FabricSpec f = testing_support::test_fabric(16);
  f.reconfig_delay = Time::us(5);
  PhysicalSpec p;
  p.servers = {2, 2};
  p.tiles = {2, 2};
  p.mesh = {8, 8};
  p.fibers = fibers;
  f.physical = p;
  return f;
}

SynthesisSpec rhd(const std::string& planner, const std::string& topology = "ring") {
  SynthesisSpec s;
  s.algorithm = "rhd";
  s.planner = planner;
  s.topology.type = topology;
  return s;
}

const WorkloadSpec kWorkload = testing_support::test_workload(Collective::reducescatter, 64'000);

bool on_own_circuits(const Schedule& s, size_t step) {
  return s.topologies()[s.steps()[step].topology].name() == "step" + std::to_string(step);
}

TEST(PhysicalPlanning, PcclKeepsARingWhereOwnCircuitsNeedMoreFibers) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  const FabricSpec two = physical_fabric(2);
  const Schedule scarce = registry.synthesize(two, kWorkload, rhd("pccl"));
  EXPECT_TRUE(verify_schedule(scarce).ok());
  EXPECT_FALSE(unrealised_step(scarce, *physical_layer_of(two)));
  // xor 4 and xor 8 need 4 fibers on an edge: never on their own circuits.
  EXPECT_FALSE(on_own_circuits(scarce, 0));
  EXPECT_FALSE(on_own_circuits(scarce, 1));
  EXPECT_TRUE(on_own_circuits(scarce, 2));
  const Schedule plenty = registry.synthesize(physical_fabric(4), kWorkload, rhd("pccl"));
  EXPECT_TRUE(on_own_circuits(plenty, 1));
  EXPECT_LT(plenty.prediction().total(), scarce.prediction().total());
  // Without fabric.physical every configuration exists: never slower.
  FabricSpec none = two;
  none.physical.reset();
  EXPECT_LE(registry.synthesize(none, kWorkload, rhd("pccl")).prediction().total(), plenty.prediction().total());
}

TEST(PhysicalPlanning, HarvestChoosesOnlyConfigurationsThatExist) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  const FabricSpec two = physical_fabric(2);
  const Schedule s = registry.synthesize(two, kWorkload, rhd("harvest"));
  EXPECT_TRUE(verify_schedule(s).ok());
  EXPECT_FALSE(unrealised_step(s, *physical_layer_of(two)));
}

TEST(PhysicalPlanning, PlannersWithoutAChoiceAreRefusedNamingTheConstraint) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  try {
    registry.synthesize(physical_fabric(2), kWorkload, rhd("every_step", "none"));
    FAIL() << "every_step placed a configuration that does not exist";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("planner 'every_step': step 0's configuration (step0) does not exist on fabric.physical"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("need 4 fibers from server 0 to server 2"), std::string::npos) << m;
    EXPECT_NE(m.find("fabric.physical.fibers is 2"), std::string::npos) << m;
  }
  // A static topology the meshes cannot hold: one wavelength, a 1-row mesh per tile row is too narrow.
  FabricSpec narrow = physical_fabric(2);
  narrow.physical->mesh = {2, 4};
  EXPECT_THROW(registry.synthesize(narrow, kWorkload, rhd("static", "hypercube")), Error);
}

TEST(PhysicalPlanning, JointAlltoallKeepsOnlyRealisableTopologies) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  FabricSpec f = physical_fabric(2);
  const WorkloadSpec w = testing_support::test_workload(Collective::alltoall, 10'000);
  SynthesisSpec s;
  s.algorithm = "rdc";
  const Schedule schedule = registry.synthesize(f, w, s);
  EXPECT_TRUE(verify_schedule(schedule).ok());
  EXPECT_FALSE(unrealised_step(schedule, *physical_layer_of(f)));
  for (const PlanCandidate& c : registry.plan_all(f, w, s, 1, CandidateDetail::summaries)) {
    if (!c.ok()) {
      EXPECT_NE(c.error.find("does not exist on fabric.physical"), std::string::npos) << c.error;
    }
  }
}

}  // namespace
}  // namespace photonsim
