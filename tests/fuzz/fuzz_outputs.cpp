// libFuzzer harness for output paths: valid inputs, and outputs that are
// symlinks, FIFOs, devices, directories, paths too long, or an input under
// another name; one command runs (tests/fuzz/paths_fuzz_target.h says what
// is a finding).
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <string>

#include "tests/fuzz/paths_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string scratch = "/tmp/photonsim_fuzz_outputs_" + std::to_string(::getpid());
  const std::string finding = photonsim_fuzz::exercise_paths(data, size, photonsim_fuzz::PathsMode::outputs, scratch);
  if (!finding.empty()) {
    std::fprintf(stderr, "finding: %s\n", finding.c_str());
    __builtin_trap();
  }
  return 0;
}
