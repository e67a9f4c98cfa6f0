// Every format photonsim writes a schedule in runs back in photonsim to the
// same measured time, to the picosecond, at the same config (issue 51): on
// every shipped collective config, at alpha_r = 10 us (a reconfiguration
// charged twice, or not at all, shows), with the message made small where a
// config is slow to simulate. Schedule files (.pb, .pbtxt) replayed; MSCCL
// XML read back as the config's algorithm; Chakra traces read back through
// workload.graph: {chakra: PREFIX} (before the fix they ran as a task graph of
// sends and charged every reconfiguration twice: once as the exported
// compute node, once as the sends' circuit set-ups).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "schedules/model/schedule_io.h"
#include "schedules/msccl/msccl_writer.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/config/config_loader.h"
#include "sim/interop/chakra_writer.h"
#include "tests/support/shipped_configs.h"

namespace photonsim {
namespace {

namespace fs = std::filesystem;

// The overrides each config runs with, export and reimport alike.
std::vector<std::string> overrides_of(const fs::path& config) {
  std::vector<std::string> sets{"fabric.reconfig_delay=10us"};
  // Keeps the sanitized suite quick: the same collective, fewer bytes.
  static const std::map<std::string, std::string> kSmall{{"figure11", "4MB"},
                                                         {"recursive_doubling_64", "64KB"},
                                                         {"dex_alltoall_64", "16KB"},
                                                         {"rhd_reducescatter_128", "1MB"},
                                                         {"retri_81", "10KB"}};
  const auto small = kSmall.find(config.stem().string());
  if (small != kSmall.end()) sets.push_back("workload.message=" + small->second);
  return sets;
}

struct Original {
  fs::path path;
  std::vector<std::string> sets;
  ExperimentConfig config;
  Schedule schedule;
  Time measured;
};

std::vector<Original> originals(const ExperimentPipeline& pipeline) {
  std::vector<Original> out;
  for (const fs::path& p : testing_support::shipped_experiment_configs()) {
    const std::vector<std::string> sets = overrides_of(p);
    ExperimentConfig config = load_config(p.string(), sets);
    const RunReport run = pipeline.run(config);
    out.push_back({p, sets, config, run.schedule, run.result.completion});
  }
  EXPECT_GE(out.size(), 13u);
  return out;
}

// What photonsim measures for a config: a collective's completion, or a task
// graph's iteration.
Time measured(const ExperimentPipeline& pipeline, const ExperimentConfig& config) {
  if (config.graph) return pipeline.run_graph(config).result.iteration;
  return pipeline.run(config).result.completion;
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("round_trip_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(RoundTrip, ScheduleFilesReplayInTheirOwnTime) {
  const ExperimentPipeline pipeline(nullptr);
  const fs::path dir = scratch("schedule");
  for (const Original& o : originals(pipeline)) {
    for (const char* extension : {".pb", ".pbtxt"}) {
      const std::string file = (dir / (o.path.stem().string() + extension)).string();
      write_schedule(o.schedule, file);
      const RunReport back = pipeline.replay(read_schedule(file), file, o.config, true);
      EXPECT_EQ(back.result.completion.picoseconds(), o.measured.picoseconds()) << o.path << " as " << extension;
    }
  }
}

// MSCCL XML carries the steps, not the circuits: read back, the config's
// planner places them again. A joint synthesizer (rdc) is no planner, so its
// config names one to read its export back: every_step, which gives each
// step its own circuits, as rdc does with every round at alpha_r = 10 us.
TEST(RoundTrip, MscclXmlRunsInTheSchedulesOwnTime) {
  const ExperimentPipeline pipeline(nullptr);
  const fs::path dir = scratch("msccl");
  for (const Original& o : originals(pipeline)) {
    const fs::path file = dir / (o.path.stem().string() + ".xml");
    std::ofstream(file) << write_msccl_xml(o.schedule);
    std::vector<std::string> sets = o.sets;
    sets.push_back("synthesis.algorithm={type: msccl, file: " + file.string() + "}");
    if (o.schedule.planner() == "joint") sets.push_back("synthesis.planner=every_step");
    const ExperimentConfig back = load_config(o.path.string(), sets);
    EXPECT_EQ(measured(pipeline, back).picoseconds(), o.measured.picoseconds()) << o.path;
  }
}

// The same config with the workload read from the traces: the fabric, the
// synthesis and workload.chunk as they were.
ExperimentConfig chakra_config(const Original& o, const std::string& prefix) {
  YAML::Node root = YAML::LoadFile(o.path.string());
  for (const std::string& set : o.sets) {
    if (!set.starts_with("workload.message=")) apply_override(root, set);
  }
  YAML::Node workload = root["workload"];
  for (const char* key : {"collective", "message", "root", "distribution", "zipf_factor", "message_scope"})
    workload.remove(key);
  workload["graph"]["chakra"] = prefix;
  YAML::Emitter text;
  text << root;
  return load_config_from_string(text.c_str(), o.path.string());  // relative files as the config's
}

TEST(RoundTrip, ChakraTracesRunInTheSchedulesOwnTime) {
  const ExperimentPipeline pipeline(nullptr);
  const fs::path dir = scratch("chakra");
  for (const Original& o : originals(pipeline)) {
    const std::vector<std::string> traces = chakra_traces_of(o.schedule);
    const std::string prefix = (dir / o.path.stem()).string();
    for (size_t r = 0; r < traces.size(); ++r) {
      std::ofstream(prefix + "." + std::to_string(r) + ".et", std::ios::binary) << traces[r];
    }
    try {
      const ExperimentConfig back = chakra_config(o, prefix);
      EXPECT_FALSE(back.graph) << o.path << ": read as a task graph, not as the schedule";
      EXPECT_EQ(measured(pipeline, back).picoseconds(), o.measured.picoseconds()) << o.path;
    } catch (const Error& e) {
      ADD_FAILURE() << o.path << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace photonsim
