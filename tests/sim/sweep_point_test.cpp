// A sweep point never reads one of the sweep's own outputs: a point whose
// config names results.csv (as its graph, say) fails without running.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/sweep/sweep_results.h"
#include "sim/sweep/sweep_spec.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

TEST(SweepPoint, APointReadingTheSweepsResultsFileFailsWithoutRunning) {
  const fs::path dir = fs::path(::testing::TempDir()) / "photonsim_sweep_point";
  fs::remove_all(dir);
  fs::create_directories(dir / "out");
  // A valid graph file that happens to sit where the sweep writes its rows.
  std::ofstream(dir / "out" / "results.csv") << "- {name: c, type: compute, gpus: [0], duration: 1us}\n";
  std::ofstream(dir / "base.yaml") << "fabric: {gpus: 2, bandwidth: 800Gbps, latency: 500ns}\n"
                                      "workload: {graph: out/results.csv}\n"
                                      "synthesis: {algorithm: direct}\n";
  const SweepSpec spec = load_sweep_from_string("base: base.yaml\ngrid:\n  fabric.latency: [500ns, 1us]\n",
                                                (dir / "s.yaml").string(), dir.string());
  const ExperimentPipeline pipeline(nullptr);
  const SweepPoint point = spec.points().front();
  // Without the sweep's outputs to compare with, the point runs.
  EXPECT_EQ(sweep_point_answer(spec, point, pipeline).rfind("ok\n", 0), 0u);
  const std::string answer = sweep_point_answer(spec, point, pipeline, sweep_outputs((dir / "out").string()));
  EXPECT_EQ(answer.rfind("error\n", 0), 0u) << answer;
  EXPECT_NE(answer.find("results.csv"), std::string::npos) << answer;
  EXPECT_NE(answer.find("graph file"), std::string::npos) << answer;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace photonsim
