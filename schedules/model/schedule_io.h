#pragma once
// Contract: Schedule <-> Protobuf files. A path ending in .pbtxt, .textproto
// or .txtpb is text format; anything else is binary. Writes are atomic (a
// temporary file renamed into place), so a file is whole or absent. Reads
// throw Error naming the file on a missing, truncated or malformed file, or
// one that breaks the Schedule's invariants.
#include <string>

#include "schedules/model/schedule.h"

namespace photonsim {

void write_schedule(const Schedule& schedule, const std::string& path);
Schedule read_schedule(const std::string& path);

// In-memory forms, for tests and tools.
std::string serialize_schedule(const Schedule& schedule, bool text_format);
Schedule parse_schedule(const std::string& bytes, bool text_format, const std::string& source);

}  // namespace photonsim
