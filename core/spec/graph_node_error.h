#pragma once
// Contract: an Error about one task-graph node, "workload.graph: node 'NAME':
// what", that keeps the node's name, so the layer that knows where the node
// was written (its file:line, or its Chakra file and node id) can put that in
// front. Thrown by TaskGraph::build and by the task-graph engine (a node whose
// times pass the time range).
#include <string>
#include <utility>

#include "core/error.h"

namespace photonsim {

class GraphNodeError : public Error {
 public:
  GraphNodeError(std::string node, const std::string& what)
      : Error("workload.graph: node '" + node + "': " + what), node_(std::move(node)) {}
  const std::string& node() const { return node_; }

 private:
  std::string node_;
};

}  // namespace photonsim
