// Replay predicts for the fabric it runs on: every cost model, recomputed
// from a saved schedule, gives exactly the stored prediction on the fabric it
// was made for, and the right figure on another one.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/error.h"
#include "schedules/cost/prediction_for_fabric.h"
#include "schedules/model/schedule_io.h"
#include "sim/config/config_loader.h"
#include "sim/app/experiment_runner.h"
#include "tests/engine/replay_fixture.h"
#include "tests/support/shipped_configs.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> shipped_configs() {
  std::vector<fs::path> out = testing_support::shipped_experiment_configs();
  for (const auto& entry : fs::directory_iterator(fs::path(PHOTONSIM_SOURCE_DIR) / "tests" / "golden")) {
    if (entry.path().extension() == ".yaml") out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void expect_same_prediction(const Prediction& a, const Prediction& b, const std::string& where) {
  EXPECT_EQ(a.model, b.model) << where;
  ASSERT_EQ(a.steps.size(), b.steps.size()) << where;
  for (size_t s = 0; s < a.steps.size(); ++s) {
    EXPECT_EQ(a.steps[s].reconfiguration, b.steps[s].reconfiguration) << where << " step " << s;
    EXPECT_EQ(a.steps[s].startup, b.steps[s].startup) << where << " step " << s;
    EXPECT_EQ(a.steps[s].propagation, b.steps[s].propagation) << where << " step " << s;
    EXPECT_EQ(a.steps[s].transmission, b.steps[s].transmission) << where << " step " << s;
  }
}

TEST(ReplayPrediction, EveryModelReproducesItsStoredPredictionOnEveryShippedConfig) {
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  std::set<std::string> models;
  for (const fs::path& p : shipped_configs()) {
    const ExperimentConfig c = load_config(p.string());
    const Schedule s = registry.synthesize(c.fabric, c.workload, c.synthesis, c.seed);
    expect_same_prediction(predict_for_fabric(s, c.fabric, c.workload), s.prediction(), p.string());
    models.insert(s.prediction().model);
  }
  // The shipped configs run the planners' default costs; the paper's costs
  // (pccl, pccl_max_transfer, harvest, harvest_eq8) are named options, tested below.
  for (const char* model : {"alpha_beta_congestion", "harvest_overlapped"}) {
    EXPECT_EQ(models.count(model), 1u) << model << " is not exercised";
  }
}

TEST(ReplayPrediction, ThePapersCostModelsAreReproducedToo) {
  const std::string golden = std::string(PHOTONSIM_SOURCE_DIR) + "/tests/golden/";
  const struct {
    const char* config;
    const char* planner;
    const char* model;
  } cases[] = {
      {"pccl_rhd_16.yaml", "{type: pccl, cost: paper}", "pccl"},
      {"pccl_rhd_16.yaml", "{type: pccl, cost: paper, w: max_transfer}", "pccl_max_transfer"},
      {"harvest_rd_16.yaml", "{type: harvest, cost: paper}", "harvest_eq8"},
      {"harvest_rd_16.yaml", "{type: harvest, cost: paper, closed_form: false}", "harvest"},
      {"harvest_rd_16.yaml", "{type: harvest, closed_form: false}", "harvest_overlapped"},
  };
  for (const auto& c : cases) {
    const ExperimentConfig config = load_config(golden + c.config, {std::string("synthesis.planner=") + c.planner});
    const Schedule s =
        SynthesizerRegistry::with_builtins().synthesize(config.fabric, config.workload, config.synthesis, config.seed);
    EXPECT_EQ(s.prediction().model, c.model) << c.planner;
    expect_same_prediction(predict_for_fabric(s, config.fabric, config.workload), s.prediction(), c.planner);
  }
}

// The case: a quickstart schedule replayed at half the bandwidth.
TEST(ReplayPrediction, ReplayOnAnotherFabricPredictsForThatFabric) {
  const std::string quickstart = std::string(PHOTONSIM_SOURCE_DIR) + "/configs/quickstart.yaml";
  const ExperimentConfig made_for = load_config(quickstart);
  const Schedule s = SynthesizerRegistry::with_builtins().synthesize(made_for.fabric, made_for.workload,
                                                                     made_for.synthesis, made_for.seed);
  const ExperimentConfig other = load_config(quickstart, {"fabric.bandwidth=400Gbps"});
  const RunReport r = replay_schedule(s, other);
  // 28 rounds of T = 500 ns + 4 MB / 400 Gbps, exact on this contention-free ring.
  EXPECT_EQ(r.schedule.prediction().total(), (Time::ns(500) + Time::us(80)) * 28);
  EXPECT_EQ(r.result.completion, r.schedule.prediction().total());
  ASSERT_TRUE(r.stored_prediction.has_value());
  EXPECT_EQ(r.stored_prediction->total(), s.prediction().total());
  EXPECT_NE(r.json().find("\"stored_predicted_ps\": " + std::to_string(s.prediction().total().picoseconds())),
            std::string::npos);
}

// A schedule without a prediction (another tool's) is predicted, in every
// fidelity; none is reported as stored.
TEST(ReplayPrediction, ScheduleWithoutPredictionIsPredictedInEveryFidelity) {
  const ExperimentConfig c = load_config(std::string(PHOTONSIM_SOURCE_DIR) + "/configs/quickstart.yaml");
  const Schedule made = SynthesizerRegistry::with_builtins().synthesize(c.fabric, c.workload, c.synthesis, c.seed);
  const Schedule bare = made.with_prediction(Prediction{});
  for (Fidelity f : {Fidelity::packet, Fidelity::chunk, Fidelity::analytical}) {
    const RunReport r = replay_schedule(bare, c, f);
    EXPECT_EQ(r.schedule.prediction().model, "alpha_beta_congestion") << to_string(f);
    EXPECT_EQ(r.schedule.prediction().total(), made.prediction().total()) << to_string(f);
    EXPECT_EQ(r.result.completion, made.prediction().total()) << to_string(f);
    EXPECT_FALSE(r.stored_prediction.has_value());
  }
}

TEST(ReplayPrediction, ScheduleForAnotherGpuCountIsRefusedBeforeAnything) {
  const std::string quickstart = std::string(PHOTONSIM_SOURCE_DIR) + "/configs/quickstart.yaml";
  const ExperimentConfig c = load_config(quickstart);
  const Schedule s = SynthesizerRegistry::with_builtins().synthesize(c.fabric, c.workload, c.synthesis, c.seed);
  try {
    replay_schedule(s, load_config(quickstart, {"fabric.gpus=16"}));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the schedule has 8 GPUs but fabric.gpus is 16"), std::string::npos)
        << e.what();
  }
}

// The one fit check of a replay (check_schedule_fits, before verifying or
// predicting): the engine takes the fit as given.
TEST(ReplayPrediction, ScheduleNeedingMorePortsThanTheFabricHasIsRefusedBeforeAnything) {
  const std::string quickstart = std::string(PHOTONSIM_SOURCE_DIR) + "/configs/quickstart.yaml";
  const ExperimentConfig c = load_config(quickstart);  // 8 GPUs, 1 directed port each
  const Topology fan_out("fan_out", 8, {{0, 1}, {0, 2}});
  const Schedule s = testing_support::schedule(8, {fan_out}, {Step{0, {testing_support::transfer(0, 1, 10)}}});
  try {
    replay_schedule(s, c);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("topology 'fan_out': node 0 needs 2 ports (out 2, in 0) but fabric.ports is 1"),
        std::string::npos)
        << e.what();
  }
}

// The same check covers the switches that survive the failures known when
// planning, for a replay outside the pipeline too: a schedule needing both
// of 2 ports, with switch 0 failed at 0, is refused naming the entry.
TEST(ReplayPrediction, ScheduleNeedingAFailedSwitchIsRefusedByTheFitCheck) {
  const std::string quickstart = std::string(PHOTONSIM_SOURCE_DIR) + "/configs/quickstart.yaml";
  const ExperimentConfig c = load_config(quickstart, {"fabric.ports=2", "fabric.on_failure=wait",
                                                      "fabric.failures=[{kind: switch, switch: 0, at: 0s}]"});
  const Topology fan_out("fan_out", 8, {{0, 1}, {0, 2}});  // 2 ports at GPU 0: fits the fabric, not 1 switch
  const Schedule s = testing_support::schedule(8, {fan_out}, {Step{0, {testing_support::transfer(0, 1, 10)}}});
  const std::string refusal =
      "fabric.failures[0] (switch 0, at 0): the schedule does not fit the switches that survive the failures known "
      "when planning (it was not planned around them): ";
  for (const bool replay : {false, true}) {
    try {
      if (replay) {
        replay_schedule(s, c);
      } else {
        check_schedule_fits(s, c);
      }
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(refusal), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(check_schedule_fits(s, load_config(quickstart, {"fabric.ports=2"})));
}

}  // namespace
}  // namespace photonsim
