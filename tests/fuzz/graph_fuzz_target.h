#pragma once
// Contract: what the config fuzzer does with a loaded config holding a small
// task graph (shared by tests/fuzz/fuzz_config.cpp and the corpus replay in
// tests/sim/fuzz_corpus_test.cpp): runs it at chunk fidelity when it is small
// enough to run in milliseconds (at most 16 GPUs and 24 nodes, messages and
// sends of at most 64 KiB, chunks of 0 or at least 1 KiB). Returns normally or
// throws photonsim::Error; anything else is a finding.
#include "schedules/synthesizer_registry.h"
#include "sim/config/experiment_config.h"
#include "sim/app/task_graph_experiment.h"

namespace photonsim_fuzz {

inline void exercise_graph_config(const photonsim::ExperimentConfig& config) {
  if (!config.graph || config.fabric.gpus > 16 || config.graph->nodes().size() > 24) return;
  const int64_t chunk = config.workload.chunk.count();
  if (chunk != 0 && chunk < 1024) return;
  for (const photonsim::TaskNode& node : config.graph->nodes()) {
    if (node.message.count() > 65536 || node.bytes.count() > 65536) return;
  }
  static const photonsim::SynthesizerRegistry registry = photonsim::SynthesizerRegistry::with_builtins();
  photonsim::run_task_graph(config, registry, photonsim::Fidelity::chunk);
}

}  // namespace photonsim_fuzz
