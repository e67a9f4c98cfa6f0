// photonsim run on task graphs too large to take: a graph estimated past
// --max-memory is refused before it is read, naming the file, the estimate
// and the limit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/hostile_run.h"

namespace photonsim_test {
namespace {

class TaskGraphRefusals : public Hostile {
 protected:
  // A config on 4 GPUs whose workload.graph is g.yaml, holding `graph`.
  std::string config_with(const std::string& graph) {
    write("g.yaml", graph);
    return write("exp.yaml",
                 "fabric: {gpus: 4, ports: 1, bandwidth: 800Gbps, latency: 500ns}\n"
                 "workload: {graph: g.yaml}\n"
                 "synthesis: {algorithm: ring, planner: static, topology: ring}\n");
  }
  std::string graph_file() const { return (dir_ / "g.yaml").string(); }
};

TEST_F(TaskGraphRefusals, GraphPastTheMemoryLimitIsRefusedBeforeItIsRead) {
  // 200,000 nodes (13.4 MB of YAML): estimated past a 64 MiB limit.
  std::string graph;
  for (int i = 0; i < 200'000; ++i) {
    graph += "- {name: n" + std::to_string(i) + ", type: compute, gpus: [0], duration: 1us" +
             (i > 0 ? ", after: n" + std::to_string(i - 1) : std::string()) + "}\n";
  }
  const std::string config = config_with(graph);
  refuse({"run", config, "--max-memory", "64MiB"},
         {graph_file() + ": workload.graph: a graph file of", "needs an estimated", "64 MiB (--max-memory)"});
}

}  // namespace
}  // namespace photonsim_test
