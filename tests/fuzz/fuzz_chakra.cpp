// libFuzzer harness for the Chakra execution-trace reader: any input must
// either become a task graph or throw photonsim::Error (a one-line message);
// anything else - a crash, another exception, a sanitizer report or a hang -
// is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "tests/fuzz/chakra_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    photonsim_fuzz::exercise_chakra_input(data, size);
  } catch (const photonsim::Error& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();  // messages are one line
  }
  return 0;
}
