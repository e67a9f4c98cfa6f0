// libFuzzer harness for the Protobuf schedule loader (binary and text
// format): any input must either give a valid Schedule or throw
// photonsim::Error; a valid one must also survive the verifier and a
// serialise/parse round trip.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "schedules/block_verifier.h"
#include "schedules/schedule_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool text_format = (data[0] & 1U) != 0;  // the first byte picks the format
  const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const photonsim::Schedule schedule = photonsim::parse_schedule(bytes, text_format, "fuzz.pb");
    if (schedule.gpus() <= 4096 && schedule.blocks() <= (1U << 20)) photonsim::verify_schedule(schedule);
    const photonsim::Schedule again =
        photonsim::parse_schedule(photonsim::serialize_schedule(schedule, false), false, "again.pb");
    if (again.steps().size() != schedule.steps().size()) __builtin_trap();
  } catch (const photonsim::Error&) {
  }
  return 0;
}
