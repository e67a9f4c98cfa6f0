// TaskGraph: validation of training-iteration graphs, each error naming its node.
#include "core/spec/task_graph.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "tests/support/task_nodes.h"

namespace photonsim {
namespace {

TaskNode compute(std::string name, std::vector<int> gpus, int64_t us, std::vector<std::string> after = {}) {
  return testing_support::compute_node(std::move(name), std::move(gpus), Time::us(us), std::move(after));
}

TaskNode allreduce(std::string name, std::vector<int> gpus, std::vector<std::string> after = {}) {
  return testing_support::collective_node(std::move(name), Collective::allreduce, std::move(gpus), Bytes(1'000'000),
                                          std::move(after));
}

TaskNode p2p(std::string name, int src, int dst, std::vector<std::string> after = {}) {
  return testing_support::send_node(std::move(name), src, dst, Bytes(1000), std::move(after));
}

void expect_error(std::vector<TaskNode> nodes, int gpus, std::vector<std::string> parts) {
  try {
    TaskGraph::build(std::move(nodes), gpus);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    for (const std::string& part : parts) EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(TaskGraph, OrdersNodesAfterWhatTheyWaitFor) {
  const TaskGraph g = TaskGraph::build({allreduce("ar", {0, 1, 2, 3}, {"fwd0", "fwd1"}), compute("fwd0", {0, 1}, 100),
                                        compute("fwd1", {2, 3}, 100), p2p("send", 1, 2, {"ar"})},
                                       4);
  EXPECT_EQ(g.topological_order(), (std::vector<uint32_t>{1, 2, 0, 3}));
  EXPECT_EQ(g.predecessors()[0], (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(TaskGraph::gpus_of(g.nodes()[3]), (std::vector<int>{1, 2}));
}

TEST(TaskGraph, ComputeMayOverlapCommunicationOnItsGpus) {
  // Backward compute of the next layer overlaps the gradient AllReduce.
  EXPECT_NO_THROW(TaskGraph::build(
      {compute("bwd1", {0, 1}, 100), allreduce("ar1", {0, 1}, {"bwd1"}), compute("bwd0", {0, 1}, 100, {"bwd1"})}, 2));
}

TEST(TaskGraph, NamesTheCycle) {
  expect_error({compute("a", {0}, 1, {"c"}), compute("b", {0}, 1, {"a"}), compute("c", {0}, 1, {"b"})}, 2,
               {"workload.graph", "cycle", "'a' -> 'b' -> 'c' -> 'a'"});
  expect_error({compute("a", {0}, 1, {"a"})}, 2, {"node 'a'", "itself"});
}

TEST(TaskGraph, NamesTheNodeAtFault) {
  expect_error({compute("fwd", {0, 7}, 1)}, 4, {"node 'fwd'", "GPU 7", "0..3"});
  expect_error({compute("fwd", {0}, 0)}, 4, {"node 'fwd'", "positive duration"});
  expect_error({compute("fwd", {}, 5)}, 4, {"node 'fwd'", "at least one GPU"});
  expect_error({compute("fwd", {1, 1}, 5)}, 4, {"node 'fwd'", "GPU 1 is listed twice"});
  expect_error({allreduce("ar", {2})}, 4, {"node 'ar'", "at least two GPUs"});
  expect_error({compute("x", {0}, 1), compute("x", {1}, 1)}, 4, {"node 'x'", "another node"});
  expect_error({compute("x", {0}, 1, {"nowhere"})}, 4, {"node 'x'", "'nowhere'"});
  TaskNode bad = p2p("send", 1, 1);
  expect_error({bad}, 4, {"node 'send'", "GPU 1 is listed twice"});
  TaskNode broadcast = allreduce("bc", {0, 1});
  broadcast.collective = Collective::broadcast;
  broadcast.root = 3;
  expect_error({broadcast}, 4, {"node 'bc'", "root 3"});
}

TEST(TaskGraph, CollectivesThatMayRunAtOnceMustNotShareAGpu) {
  // Tensor-parallel groups {0,1} and {2,3} at once: fine; a data-parallel
  // group {1,2} unordered with them: not.
  EXPECT_NO_THROW(TaskGraph::build({allreduce("tp0", {0, 1}), allreduce("tp1", {2, 3})}, 4));
  expect_error({allreduce("tp0", {0, 1}), allreduce("tp1", {2, 3}), allreduce("dp", {1, 2})}, 4,
               {"node 'dp'", "'tp0'", "collectives", "GPU 1", "after"});
  EXPECT_NO_THROW(TaskGraph::build(
      {allreduce("tp0", {0, 1}), allreduce("tp1", {2, 3}), allreduce("dp", {1, 2}, {"tp0", "tp1"})}, 4));
  // Transitively ordered is ordered.
  EXPECT_NO_THROW(TaskGraph::build({allreduce("a", {0, 1}), compute("c", {3}, 1, {"a"}), p2p("s", 1, 2, {"c"})}, 4));
  // A send may meet a collective or another send: the engine takes turns.
  EXPECT_NO_THROW(TaskGraph::build({allreduce("a", {0, 1}), p2p("s", 1, 2), p2p("t", 2, 1)}, 4));
  expect_error({compute("c0", {0}, 1), compute("c1", {0, 1}, 1)}, 4, {"node 'c1'", "compute", "GPU 0"});
}

// 100,000 compute nodes in a chain on GPU 0 (the all-pairs check held 1.2 GB
// of ancestor bits and made 5e9 pair checks for it): accepted. One more
// compute node on GPU 0 that waits only for the middle of the chain may run
// with its second half: refused, naming the chain's node it meets first in
// the graph's order (the chain's last, ordered before it). Sends along the
// chain may share its GPUs; two collectives in two unordered chains may not.
TEST(TaskGraph, LargeGraphsAreCheckedWithoutAllPairs) {
  const int n = 100'000;
  std::vector<TaskNode> nodes;
  for (int i = 0; i < n; ++i) {
    nodes.push_back(
        compute("c" + std::to_string(i), {0, 1}, 1,
                i == 0 ? std::vector<std::string>{} : std::vector<std::string>{"c" + std::to_string(i - 1)}));
  }
  nodes.push_back(p2p("send", 0, 1, {"c50000"}));
  EXPECT_NO_THROW(TaskGraph::build(nodes, 2));
  nodes.push_back(compute("late", {1}, 1, {"c50000"}));
  expect_error(nodes, 2, {"node 'late'", "may run at the same time as 'c99999'", "compute on GPU 1"});

  std::vector<TaskNode> collectives;
  for (int i = 0; i < n; ++i) {
    const std::string chain = i % 2 == 0 ? "a" : "b";
    std::vector<std::string> after;
    if (i >= 2) after.push_back(chain + std::to_string(i - 2));
    collectives.push_back(
        allreduce(chain + std::to_string(i), i % 2 == 0 ? std::vector<int>{0, 1} : std::vector<int>{2, 3}, after));
  }
  EXPECT_NO_THROW(TaskGraph::build(collectives, 4));
  collectives.back().gpus = {1, 3};
  expect_error(collectives, 4, {"may run at the same time as", "are collectives on GPU 1"});
}

TEST(TaskGraph, ComputeAlongAChainMustEndWithinTheTimeRange) {
  // 5,000,000 s each: within int64 picoseconds (about 9,223,372 s), their sum is not.
  const int64_t five_million_s = 5'000'000'000'000;
  expect_error({compute("a", {0}, five_million_s), compute("b", {1}, five_million_s, {"a"})}, 2,
               {"node 'b'", "its duration 5000000000000000000 ps after 5000000000000000000 ps of compute",
                "9223372036854775807 ps (about 106.75 days)"});
  // Side by side they fit; so does a send after both.
  EXPECT_NO_THROW(TaskGraph::build(
      {compute("a", {0}, five_million_s), compute("b", {1}, five_million_s), p2p("s", 0, 1, {"a", "b"})}, 2));
}

}  // namespace
}  // namespace photonsim
