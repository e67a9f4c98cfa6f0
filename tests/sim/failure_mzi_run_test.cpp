// A failed MZI in a run (issue 55): known from the start, it reaches a run
// only through its plan - every configuration is routed around it by the
// physical layer (docs/model.md, "Failures known when planning") - so the run
// goes on as planned and lists the entry; a schedule planned on the healthy
// hardware that needs the failed MZI is refused by the fit check, naming it.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "schedules/synthesis/physical_feasibility.h"
#include "sim/app/experiment_pipeline.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

const std::string kPhysical = std::string(PHOTONSIM_SOURCE_DIR) + "/configs/pccl_paper/physical_rhd_16.yaml";

// The (row, col) of server 0's mesh that the layer calls `role`.
std::pair<int, int> mzi_named(const ExperimentConfig& config, const std::string& role) {
  const auto layer = physical_layer_of(config.fabric);
  const PhysicalSpec& spec = *config.fabric.physical;
  for (int row = 0; row < spec.mesh.rows; ++row)
    for (int col = 0; col < spec.mesh.cols; ++col)
      if (layer->mzi_role(0, row, col).find(role) != std::string::npos) return {row, col};
  ADD_FAILURE() << "no MZI of server 0 is " << role;
  return {0, 0};
}

std::string failed_mzi(std::pair<int, int> at) {
  return "fabric.failures=[{kind: mzi, server: 0, row: " + std::to_string(at.first) +
         ", col: " + std::to_string(at.second) + "}]";
}

TEST(FailureMziRun, ARunRoutedAroundAFailedFiberMziGoesOnAsPlannedAndListsIt) {
  const ExperimentPipeline pipeline(nullptr);
  const ExperimentConfig healthy = pipeline.load(kPhysical);
  const std::pair<int, int> fiber = mzi_named(healthy, "fiber 1 towards server 1");
  const ExperimentConfig failed = pipeline.load(kPhysical, {failed_mzi(fiber)});
  for (const Fidelity fidelity : {Fidelity::packet, Fidelity::packet_reference, Fidelity::chunk,
                                  Fidelity::analytical}) {
    const RunReport run = pipeline.run(failed, fidelity);
    // The ring's circuits keep fiber 0 (two per edge, one needed): the same plan, the same time.
    EXPECT_EQ(run.result.completion, pipeline.run(healthy, fidelity).result.completion) << to_string(fidelity);
    EXPECT_NE(run.json().find("{\"kind\": \"mzi\", \"entry\": 0, \"server\": 0, \"row\": " +
                              std::to_string(fiber.first) + ", \"col\": " + std::to_string(fiber.second) + "}"),
              std::string::npos)
        << run.json();
    EXPECT_NE(run.table().find("mzi server 0 row " + std::to_string(fiber.first) + " col " +
                               std::to_string(fiber.second) + ": failed from the start, every configuration "
                               "routed around it"),
              std::string::npos);
  }
}

TEST(FailureMziRun, AHealthyPlanNeedingTheFailedMziIsRefusedNamingIt) {
  const ExperimentPipeline pipeline(nullptr);
  const ExperimentConfig healthy = pipeline.load(kPhysical);
  const std::pair<int, int> receiver = mzi_named(healthy, "GPU 0's receiver of port 0");
  const ExperimentConfig failed = pipeline.load(kPhysical, {failed_mzi(receiver)});
  const Schedule planned_healthy = pipeline.synthesize(healthy);
  std::string refusal;
  try {
    pipeline.replay(planned_healthy, "healthy.pb", failed, true);
  } catch (const Error& e) {
    refusal = e.what();
  }
  EXPECT_NE(refusal.find("fabric.failures[0] (mzi, server 0, row " + std::to_string(receiver.first) + ", col " +
                         std::to_string(receiver.second) + ")"),
            std::string::npos)
      << refusal;
}

}  // namespace
}  // namespace photonsim
