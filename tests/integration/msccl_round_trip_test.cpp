// Every registered algorithm, exported as an MSCCL XML algorithm and read
// back (synthesis.algorithm: {type: msccl, file}), gives a schedule the
// verifier proves, with the same steps, and the same simulated time, at
// n = 8 and 16. Pattern algorithms go through the user's path (the same
// planner plans the imported steps); a joint synthesizer's topologies and
// routes are its own, not the algorithm's, so its imported steps are placed
// back on them. The cases come from the registry.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "core/error.h"
#include "schedules/msccl/msccl_reader.h"
#include "schedules/msccl/msccl_writer.h"
#include "schedules/synthesizer_registry.h"
#include "schedules/verify/block_verifier.h"
#include "sim/engine/schedule_execution.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

struct MscclRoundTripCase {
  std::string algorithm;
  Collective collective;
  int n;
  std::string planner;  // empty: a joint synthesizer's own
};

void PrintTo(const MscclRoundTripCase& c, std::ostream* out) {
  *out << c.algorithm << "/" << to_string(c.collective) << "/n=" << c.n << "/" << c.planner;
}

std::vector<MscclRoundTripCase> cases() {
  std::vector<MscclRoundTripCase> out;
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  for (const auto& entry : registry.algorithms()) {
    if (entry.info.reads_file) continue;
    for (Collective c : entry.info.collectives) {
      for (int n : {8, 16}) {
        if (!entry.supports(n, 2)) continue;
        if (entry.is_joint()) {
          out.push_back({entry.info.name, c, n, ""});
        } else {
          for (const char* planner : {"every_step", "static"}) out.push_back({entry.info.name, c, n, planner});
        }
      }
    }
  }
  return out;
}

FabricSpec fabric_of(int n) {
  FabricSpec f = testing_support::test_fabric(n, 2);
  f.reconfig_delay = Time::us(1);
  return f;
}

// A joint schedule's steps with the imported transfers, each keeping the
// route the synthesizer gave the transfer it came from.
Schedule placed_on(const Schedule& original, const MscclProgram& program) {
  ScheduleParts parts = original.parts();
  for (size_t s = 0; s < parts.steps.size() && s < program.levels.size(); ++s) {
    std::map<std::tuple<Node, Node, std::vector<uint32_t>>, const Transfer*> routed;
    for (const Transfer& t : original.steps()[s].transfers) routed[{t.src, t.dst, t.blocks}] = &t;
    std::vector<Transfer> step;
    for (const Transfer& imported : program.levels[s]) {
      const auto it = routed.find({imported.src, imported.dst, imported.blocks});
      Transfer t = it == routed.end() ? imported : *it->second;
      t.op = imported.op;
      step.push_back(std::move(t));
    }
    parts.steps[s].transfers = std::move(step);
  }
  return Schedule(std::move(parts));
}

class MscclRoundTrip : public testing::TestWithParam<MscclRoundTripCase> {};

TEST_P(MscclRoundTrip, ExportThenImportKeepsStepsAndSimulatedTime) {
  const MscclRoundTripCase& c = GetParam();
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  const auto& entry = registry.algorithm(c.algorithm);
  const FabricSpec f = fabric_of(c.n);
  const WorkloadSpec w = testing_support::test_workload(c.collective, int64_t{64'000} * c.n, 3);
  SynthesisSpec s;
  s.algorithm = c.algorithm;
  s.planner = c.planner;
  if (c.planner == "static") s.topology = TopologySpec{"ring", {{"bidirectional", "true"}}};
  const Schedule original = registry.synthesize(f, w, s, 5);
  const std::string xml = write_msccl_xml(original);
  const MscclProgram program = read_msccl_xml(xml, "exported.xml");
  EXPECT_EQ(program.levels.size(), original.steps().size());
  Schedule imported = original;
  if (entry.is_joint()) {
    imported = placed_on(original, program);
  } else {
    const std::string path = testing::TempDir() + "/" + c.algorithm + "_" + to_string(c.collective) + "_" +
                             std::to_string(c.n) + "_" + c.planner + ".xml";
    std::ofstream(path) << xml;
    SynthesisSpec from_file;
    from_file.algorithm = "msccl";
    from_file.algorithm_params["file"] = path;
    from_file.planner = original.planner();
    from_file.topology = s.topology;
    imported = registry.synthesize(f, w, from_file, 5);
    std::filesystem::remove(path);
  }
  const Verification v = verify_schedule(imported);
  ASSERT_TRUE(v.ok()) << v.violation->describe();
  ASSERT_EQ(imported.steps().size(), original.steps().size());
  for (size_t step = 0; step < original.steps().size(); ++step)
    EXPECT_EQ(imported.steps()[step].transfers.size(), original.steps()[step].transfers.size()) << "step " << step;
  const Time before = run_schedule(f, w, original).completion;
  const Time after = run_schedule(f, w, imported).completion;
  EXPECT_EQ(after, before) << "imported " << after.picoseconds() << " ps, original " << before.picoseconds() << " ps";
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithm, MscclRoundTrip, testing::ValuesIn(cases()));

}  // namespace
}  // namespace photonsim
