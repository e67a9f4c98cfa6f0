// libFuzzer harness for input kinds: the config, the file it names (a task
// graph, an MSCCL algorithm, an edge list), the schedule and the sweep file
// each a regular file, a FIFO, a directory, a symlink, a device, empty, over
// its cap, or a path too long; one command runs (tests/fuzz/paths_fuzz_target.h
// says what is a finding: above all a hang on a FIFO or a device).
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <string>

#include "tests/fuzz/paths_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch = "/tmp/photonsim_fuzz_inputs_" + std::to_string(::getpid());
  const std::string finding = photonsim_fuzz::exercise_paths(data, size, photonsim_fuzz::PathsMode::inputs, scratch);
  if (!finding.empty()) {
    std::fprintf(stderr, "finding: %s\n", finding.c_str());
    __builtin_trap();
  }
  return 0;
}
