// libFuzzer harness for the YAML experiment loader: any input must either
// load or throw photonsim::Error (a one-line message); a small task graph is
// also run (graph_fuzz_target.h). Anything else - a crash, another
// exception, a sanitizer report or a hang - is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "sim/config/config_loader.h"
#include "tests/fuzz/graph_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    photonsim_fuzz::exercise_graph_config(photonsim::load_config_from_string(text, "fuzz.yaml"));
  } catch (const photonsim::Error& e) {
    if (std::string(e.what()).find('\n') != std::string::npos) __builtin_trap();  // messages are one line
  }
  return 0;
}
