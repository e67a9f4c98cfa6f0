#pragma once
// Contract: what the MSCCL fuzzer does with one input, shared by the
// libFuzzer harness (tests/fuzz/fuzz_msccl.cpp) and the corpus replay in the
// test suite: the input is an MSCCL XML algorithm or an MSCCL++ JSON
// execution plan (msccl_file_reader.h). It is read; when it reads,
// its levels become a schedule (no circuits; 1,000 bytes per chunk) that the
// verifier judges; a verified schedule must export to MSCCL XML and read back
// (a failure there traps: a verified schedule is always expressible).
// Returns normally or throws photonsim::Error; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "schedules/model/block_sizes.h"
#include "schedules/msccl/msccl_file_reader.h"
#include "schedules/msccl/msccl_reader.h"
#include "schedules/msccl/msccl_writer.h"
#include "schedules/verify/block_verifier.h"

namespace photonsim_fuzz {

inline void exercise_msccl_input(const uint8_t* data, size_t size) {
  using namespace photonsim;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const MscclProgram program = read_msccl_file(text, "fuzz.xml");
  ScheduleParts parts;
  parts.collective = program.collective;
  parts.algorithm = "msccl";
  parts.planner = "none";
  parts.gpus = program.gpus;
  parts.blocks = program.blocks;
  parts.block_parts = program.block_parts;
  parts.root = program.root;
  parts.message = Bytes(
      1000 * static_cast<int64_t>(program.collective == Collective::alltoall ? program.block_parts : program.blocks));
  parts.topologies.push_back(Topology("none", program.gpus, {}));
  for (const auto& level : program.levels) {
    Step step;
    for (Transfer t : level) {
      t.bytes = Bytes(1000 * static_cast<int64_t>(t.blocks.size()));
      step.transfers.push_back(std::move(t));
    }
    parts.steps.push_back(std::move(step));
  }
  const Schedule schedule(std::move(parts));
  if (verifier_memory_estimate(schedule) > (uint64_t{64} << 20)) return;
  if (!verify_schedule(schedule).ok()) return;
  try {
    read_msccl_xml(write_msccl_xml(schedule), "exported.xml");
  } catch (const Error&) {
    __builtin_trap();
  }
}

}  // namespace photonsim_fuzz
