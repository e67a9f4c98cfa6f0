#pragma once
// Contract: what the Chakra fuzzer does with one input, shared by the
// libFuzzer harness (tests/fuzz/fuzz_chakra.cpp) and the corpus replay in the
// test suite: the first byte picks the number of ranks (2-4) and, by its top
// bit, whether the rest is one file replicated on them (`replicate: N`) or
// every rank's own trace file (so collectives and sends of a valid trace find
// their peers); the traces become a task graph, validated for that many GPUs.
// Returns normally or throws photonsim::Error; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/spec/task_graph.h"
#include "sim/interop/chakra_trace.h"

namespace photonsim_fuzz {

inline void exercise_chakra_input(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const int ranks = 2 + data[0] % 3;
  const std::string trace(reinterpret_cast<const char*>(data + 1), size - 1);
  const bool replicated = (data[0] & 0x80) != 0;
  std::vector<std::string> files(replicated ? 1 : static_cast<size_t>(ranks), trace), shown;
  for (size_t r = 0; r < files.size(); ++r) shown.push_back("fuzz." + std::to_string(r) + ".et");
  photonsim::ChakraGraph graph = photonsim::chakra_graph_from_bytes(files, shown, replicated ? ranks : 0);
  photonsim::TaskGraph::build(std::move(graph.nodes), ranks);
}

}  // namespace photonsim_fuzz
