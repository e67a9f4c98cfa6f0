// libFuzzer harness for the MSCCL XML and MSCCL++ JSON readers (and, on what
// verifies, the XML writer): any input must either read or throw
// photonsim::Error (a one-line message); anything else - a crash, another
// exception, a sanitizer report or a hang - is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "tests/fuzz/msccl_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    photonsim_fuzz::exercise_msccl_input(data, size);
  } catch (const photonsim::Error& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();  // messages are one line
  }
  return 0;
}
