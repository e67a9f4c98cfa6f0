#pragma once
// Task-graph nodes for tests, built field by field as the loader would.
#include <string>
#include <vector>

#include "core/spec/task_graph.h"

namespace photonsim::testing_support {

inline TaskNode compute_node(std::string name, std::vector<int> gpus, Time duration,
                             std::vector<std::string> after = {}) {
  TaskNode n;
  n.name = std::move(name);
  n.kind = TaskKind::compute;
  n.gpus = std::move(gpus);
  n.duration = duration;
  n.after = std::move(after);
  return n;
}

inline TaskNode delay_node(std::string name, std::vector<int> gpus, Time duration,
                           std::vector<std::string> after = {}) {
  TaskNode n = compute_node(std::move(name), std::move(gpus), duration, std::move(after));
  n.kind = TaskKind::delay;
  return n;
}

inline TaskNode collective_node(std::string name, Collective collective, std::vector<int> gpus, Bytes message,
                                std::vector<std::string> after = {}) {
  TaskNode n;
  n.name = std::move(name);
  n.kind = TaskKind::collective;
  n.collective = collective;
  n.gpus = std::move(gpus);
  n.message = message;
  n.after = std::move(after);
  return n;
}

inline TaskNode send_node(std::string name, int src, int dst, Bytes bytes, std::vector<std::string> after = {}) {
  TaskNode n;
  n.name = std::move(name);
  n.kind = TaskKind::p2p;
  n.src = src;
  n.dst = dst;
  n.bytes = bytes;
  n.after = std::move(after);
  return n;
}

}  // namespace photonsim::testing_support
