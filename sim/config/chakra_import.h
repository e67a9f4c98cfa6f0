#pragma once
// Contract: workload.graph: {chakra: PREFIX[, replicate: N][, algorithms:
// {...}]} as its keys are read, each through its schema line (the
// workload.graph.* keys of builtin_graph_keys), before any trace is:
// chakra_reader.cpp then reads the traces it names.
#include <map>
#include <optional>
#include <string>

#include "core/spec/workload_spec.h"

namespace photonsim {

struct ChakraImport {
  std::string prefix;                            // PREFIX of PREFIX.0.et, PREFIX.1.et, ..., as written
  std::optional<int> replicate;                  // rank 0's trace run on this many ranks
  std::map<Collective, std::string> algorithms;  // each kind of collective's algorithm (others: synthesis.algorithm)
};

}  // namespace photonsim
