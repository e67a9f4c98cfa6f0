#pragma once
// Contract: what the path fuzzers do with one input, shared by the libFuzzer
// harnesses (tests/fuzz/fuzz_outputs.cpp, fuzz_inputs.cpp) and the corpus
// replay in the test suite. The bytes build a scratch folder - a config, the
// file it names (a task graph, an MSCCL algorithm or an edge list), a
// schedule, output paths - each of a kind the bytes pick: a regular file,
// a FIFO, a directory, a symlink (to a file, a FIFO, nothing), a device, an
// empty or over-the-cap file, a path too long, or the same file as an input
// under another name (the same path, a hard link, a symlink). Then one
// command runs in-process (run, synth, replay, verify or sweep). A finding -
// exit 3, an input whose bytes or kind changed, an output claimed written
// that is not a regular file, an error message that is not one line - is
// returned as its description (empty: none); a hang is the fuzzer's timeout.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/input_file.h"
#include "schedules/model/schedule_io.h"
#include "schedules/msccl/msccl_writer.h"
#include "schedules/synthesizer_registry.h"
#include "sim/cli/cli.h"

namespace photonsim_fuzz {

namespace paths_detail {

namespace fs = std::filesystem;

constexpr const char* kConfig =
    "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns, reconfig_delay: 1us}\n"
    "workload: {collective: allreduce, message: 4000B}\n"
    "synthesis: {algorithm: ring, planner: static, topology: ring}\n";

// A fixed schedule and MSCCL algorithm (ring AllReduce on 4 GPUs), made once.
inline const photonsim::Schedule& ring_schedule() {
  static const photonsim::Schedule schedule = [] {
    photonsim::FabricSpec f;
    f.gpus = 4;
    f.bandwidth = photonsim::Bandwidth::bits_per_second(800'000'000'000);
    f.latency = photonsim::Time::ns(500);
    photonsim::WorkloadSpec w;
    w.collective = photonsim::Collective::allreduce;
    w.message = photonsim::Bytes(4000);
    photonsim::SynthesisSpec s;
    s.algorithm = "ring";
    s.planner = "static";
    s.topology.type = "ring";
    return photonsim::SynthesizerRegistry::with_builtins().synthesize(f, w, s);
  }();
  return schedule;
}

// What a file of the scratch folder is made as.
enum class Kind : uint8_t {
  regular,
  fifo,
  directory,
  symlink_to_regular,
  symlink_to_fifo,
  dangling_symlink,
  absent,
  dev_null,
  dev_zero,
  over_cap,
  empty,
  long_path,
  count
};

// Reads one byte at a time; zeros past the end.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t next() { return at_ < size_ ? data_[at_++] : 0; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

// Snapshot of a path: its kind (lstat) and, for a regular file, its bytes.
struct Snapshot {
  std::string path;
  mode_t type = 0;  // 0: absent
  std::string bytes;
};

inline Snapshot snapshot(const std::string& path) {
  Snapshot s{path, 0, ""};
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return s;
  s.type = st.st_mode & S_IFMT;
  if (S_ISREG(st.st_mode) && st.st_size < (1 << 20)) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    s.bytes = text.str();
  }
  return s;
}

class Scratch {
 public:
  explicit Scratch(fs::path root) : root_(std::move(root)) {
    std::error_code ec;
    fs::remove_all(root_, ec);
    fs::create_directories(root_);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  const fs::path& root() const { return root_; }

  // Makes `name` as `kind` holding `content` where it is a file; returns the
  // path to give the command (a long path for long_path).
  std::string make(const std::string& name, Kind kind, const std::string& content, uint64_t cap) {
    const fs::path p = root_ / name;
    const std::string real = (root_ / ("real_" + name)).string();
    switch (kind) {
      case Kind::regular:
        write(p, content);
        break;
      case Kind::fifo:
        ::mkfifo(p.c_str(), 0644);
        break;
      case Kind::directory:
        fs::create_directories(p);
        break;
      case Kind::symlink_to_regular:
        write(real, content);
        fs::create_symlink(real, p);
        break;
      case Kind::symlink_to_fifo:
        ::mkfifo(real.c_str(), 0644);
        fs::create_symlink(real, p);
        break;
      case Kind::dangling_symlink:
        fs::create_symlink(root_ / "nowhere", p);
        break;
      case Kind::absent:
        break;
      case Kind::dev_null:
        return "/dev/null";
      case Kind::dev_zero:
        return "/dev/zero";
      case Kind::over_cap: {
        write(p, content);
        if (::truncate(p.c_str(), static_cast<off_t>(cap + 1)) != 0) return p.string();  // sparse
        break;
      }
      case Kind::empty:
        write(p, "");
        break;
      case Kind::long_path:
      case Kind::count:
        return (root_ / std::string(5000, 'x')).string() + name;
    }
    return p.string();
  }

  static void write(const fs::path& p, const std::string& content) { std::ofstream(p, std::ios::binary) << content; }

 private:
  fs::path root_;
};

inline Kind kind_of(uint8_t byte) { return static_cast<Kind>(byte % static_cast<uint8_t>(Kind::count)); }

}  // namespace paths_detail

enum class PathsMode : uint8_t { outputs, inputs };

// `scratch`: a folder this call may remove and recreate. Returns the finding, or "".
inline std::string exercise_paths(const uint8_t* data, size_t size, PathsMode mode, const std::string& scratch) {
  using namespace paths_detail;
  Bytes in(data, size);
  Scratch folder(scratch);
  const uint8_t verb = in.next() % 5;
  // In the outputs mode every input is a valid regular file; in the inputs
  // mode outputs are fresh paths.
  const auto input_kind = [&] { return mode == PathsMode::outputs ? Kind::regular : kind_of(in.next()); };
  const uint8_t reference = in.next() % 4;  // 0: nothing, 1: graph file, 2: MSCCL file, 3: edge file

  std::string config_text = kConfig;
  std::string referenced;
  if (reference == 1) {
    config_text =
        "fabric: {gpus: 4, bandwidth: 800Gbps, latency: 500ns}\n"
        "workload: {graph: ref.yaml}\n"
        "synthesis: {algorithm: ring}\n";
    referenced = folder.make("ref.yaml", input_kind(),
                             "- {name: a, type: compute, gpus: [\"0-3\"], duration: 1us}\n"
                             "- {name: b, type: collective, collective: allreduce, gpus: [\"0-3\"], message: 4KB, "
                             "after: a}\n",
                             photonsim::kGraphInput.max_bytes);
  } else if (reference == 2) {
    referenced = folder.make("ref.xml", input_kind(), photonsim::write_msccl_xml(ring_schedule()),
                             photonsim::kMscclInput.max_bytes);
    config_text = std::string(kConfig).replace(std::string(kConfig).find("algorithm: ring"),
                                               std::string("algorithm: ring").size(),
                                               "algorithm: {type: msccl, file: " + referenced + "}");
  } else if (reference == 3) {
    referenced = folder.make("ref.edges", input_kind(), "0 1\n1 2\n2 3\n3 0\n", photonsim::kEdgeListInput.max_bytes);
    config_text =
        std::string(kConfig).replace(std::string(kConfig).find("topology: ring"), std::string("topology: ring").size(),
                                     "topology: {type: from_edges, file: " + referenced + "}");
  }
  const std::string config = folder.make("c.yaml", input_kind(), config_text, photonsim::kConfigInput.max_bytes);
  const std::string schedule = folder.make("s.pb", input_kind(), photonsim::serialize_schedule(ring_schedule(), false),
                                           photonsim::kScheduleInput.max_bytes);
  const std::string sweep =
      folder.make("sw.yaml", input_kind(), "base: c.yaml\ngrid:\n  fabric.latency: [500ns, 1us]\n",
                  photonsim::kSweepInput.max_bytes);

  // The files the command reads: those must come through untouched.
  std::vector<std::string> inputs{config};
  const bool verify_schedule_file = verb == 3 && in.next() % 2 == 1;
  if (verify_schedule_file) inputs = {schedule};
  if (verb == 2) inputs.push_back(schedule);
  if (verb == 4) inputs.push_back(sweep);
  if (!referenced.empty() && !verify_schedule_file) inputs.push_back(referenced);
  // An output path of the kind the next byte picks.
  const auto output = [&](const std::string& name) -> std::string {
    const uint8_t pick = mode == PathsMode::outputs ? static_cast<uint8_t>(in.next() % 13) : uint8_t{0};
    switch (pick) {
      case 0:
        return (folder.root() / name).string();  // a fresh path
      case 1:
        return folder.make(name, Kind::regular, "old", 0);
      case 2:
        return folder.make(name, Kind::symlink_to_regular, "old", 0);
      case 3:
        return folder.make(name, Kind::fifo, "", 0);
      case 4:
        return folder.make(name, Kind::directory, "", 0);
      case 5:
        return "/dev/null";
      case 6:
        return inputs[in.next() % inputs.size()];  // the same path as an input
      case 7: {
        const std::string link = (folder.root() / name).string();
        ::link(inputs[in.next() % inputs.size()].c_str(), link.c_str());  // a hard link to an input
        return link;
      }
      case 8: {
        const fs::path link = folder.root() / name;
        std::error_code ec;
        fs::create_symlink(inputs[in.next() % inputs.size()], link, ec);
        return link.string();
      }
      case 9:
        return (folder.root() / "." / "c.yaml").string();  // the config by another spelling
      case 10:
        return (folder.root() / std::string(5000, 'y')).string();
      case 11:
        return folder.make("plain", Kind::regular, "x", 0) + "/" + name;  // under a file
      default:
        return folder.root().string();  // the scratch folder itself, which holds the inputs
    }
  };

  std::vector<std::string> args{"photonsim"};
  std::vector<std::string> claimed;  // outputs that exist as regular files after a success
  switch (verb) {
    case 0:
    case 2: {
      args.push_back(verb == 0 ? "run" : "replay");
      if (verb == 2) args.push_back(schedule);
      args.push_back(config);
      const uint8_t options = in.next() % 4;
      if (options & 1) {
        args.push_back("--out");
        args.push_back(output("out"));
        const std::vector<const char*> files =
            reference == 1 ? std::vector<const char*>{"/graph.json", "/nodes.csv"}
                           : std::vector<const char*>{"/result.json", "/result.csv", "/schedule.pb"};
        for (const char* f : files) claimed.push_back(args.back() + f);
      }
      if (options & 2) {
        args.push_back("--trace");
        args.push_back(output("trace.json"));
        claimed.push_back(args.back());
      }
      break;
    }
    case 1:
      args.insert(args.end(), {"synth", config, "--out", output(in.next() % 2 ? "s2.xml" : "s2.pb")});
      claimed.push_back(args.back());
      break;
    case 3:
      args.insert(args.end(), {"verify", verify_schedule_file ? schedule : config});
      break;
    default:
      args.insert(args.end(), {"sweep", sweep, "--jobs", "1", "--out", output("results")});
      claimed.push_back(args.back() + "/results.csv");
      break;
  }

  std::vector<Snapshot> before;
  for (const std::string& path : inputs) {
    if (!path.empty()) before.push_back(snapshot(path));
  }
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = photonsim::run_cli(static_cast<int>(argv.size()), argv.data(), out, err);
  std::string command;
  for (const std::string& a : args) command += (command.empty() ? "" : " ") + a.substr(0, 200);
  const std::string message = err.str();
  if (code != 0 && code != 1 && code != 2) return command + ": exit " + std::to_string(code) + ": " + message;
  if (code != 0) {
    // Warnings may precede it; the error itself is the last line, and one line.
    const size_t last = message.size() >= 2 ? message.rfind('\n', message.size() - 2) : std::string::npos;
    const std::string tail = last == std::string::npos ? message : message.substr(last + 1);
    if (tail.rfind("photonsim", 0) != 0 || tail.find('\n') != tail.size() - 1)
      return command + ": the error is not one line: " + message;
  }
  for (const Snapshot& s : before) {
    const Snapshot now = snapshot(s.path);
    if (now.type != s.type || now.bytes != s.bytes) return command + ": the input " + s.path + " changed";
  }
  if (code == 0) {
    for (const std::string& path : claimed) {
      struct stat st {};
      if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return command + ": exit 0 but " + path + " is not a regular file";
    }
  }
  return "";
}

}  // namespace photonsim_fuzz
