// libFuzzer harness for the Protobuf schedule loader (binary and text
// format) and the replay path: any input must either give a valid Schedule
// or throw photonsim::Error; a valid one must also survive the verifier and
// a serialise/parse round trip, and replaying it on a fabric of another kind
// (the config of `photonsim replay`, picked by the first byte) must report a
// result or throw photonsim::Error, never anything else.
#include "tests/fuzz/schedule_fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    photonsim_fuzz::exercise_schedule_input(data, size);
  } catch (const photonsim::Error&) {
  }
  return 0;
}
