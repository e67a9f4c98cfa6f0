#pragma once
// Contract: every file photonsim reads - configs, sweep files, task graphs,
// schedules, MSCCL algorithms, Chakra traces, edge lists, a sweep's own
// results on --resume - is read whole through read_input_file. It opens the
// path without blocking and refuses at once, with one Error line naming the
// file and the kind of input: a path that is not a regular file (a FIFO, a
// device, a socket, a directory: reading one could hang or never end), a file
// larger than its kind's documented cap, and a path the OS rejects (absent,
// unreadable, a name too long). So no input can hang a run, feed it
// gigabytes, or surface as an internal error.
#include <cstdint>
#include <string>

namespace photonsim {

struct InputKind {
  const char* what;    // "config", "schedule", ... as messages name the file
  uint64_t max_bytes;  // the documented cap (docs/cli.md, "Inputs and outputs")
};

inline constexpr uint64_t kMiB = uint64_t{1} << 20;
// YAML: configs, sweep files and task-graph files (a million-node graph is
// about 70 MB of YAML).
inline constexpr InputKind kConfigInput{"config", 256 * kMiB};
inline constexpr InputKind kSweepInput{"sweep file", 256 * kMiB};
inline constexpr InputKind kGraphInput{"graph file", 256 * kMiB};
// Protobuf cannot parse a message of 2 GiB or more.
inline constexpr InputKind kScheduleInput{"schedule", 2048 * kMiB - 1};
inline constexpr InputKind kMscclInput{"MSCCL algorithm file", 256 * kMiB};
inline constexpr InputKind kChakraInput{"Chakra trace", 2048 * kMiB};
inline constexpr InputKind kEdgeListInput{"edge file", 256 * kMiB};
inline constexpr InputKind kSweepResultsInput{"sweep results file", 2048 * kMiB};

std::string read_input_file(const std::string& path, const InputKind& kind);

// "name (512.0 MiB)": a size for messages.
std::string describe_bytes(uint64_t bytes);

}  // namespace photonsim
