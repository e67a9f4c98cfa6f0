#pragma once
// Contract: runs the photonsim binary on one hostile input and checks that it
// is refused properly: exit 1 (bad input) or 2 (bad usage), never exit 3, a
// signal, a hang past the time limit or a peak memory past the limit, and one
// line on stderr naming what was wrong. Shared by the adversarial battery
// (tests/cli/adversarial_*_test.cpp); each case is one call.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_paths.h"

namespace photonsim_test {

namespace fs = std::filesystem;

struct HostileOutcome {
  int code = -1;   // exit code, -1 if killed by a signal
  int signal = 0;  // the signal that ended it, 0 if it exited
  bool timed_out = false;
  double seconds = 0;
  long peak_rss_kib = 0;
  std::string out;
  std::string err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A JSON report without its wall-clock lines ("wall_s", "synthesis_s",
// "simulation_s"), which differ run to run: the rest must match byte for byte.
inline std::string without_timings(const std::string& json) {
  std::string out, line;
  std::istringstream in(json);
  while (std::getline(in, line)) {
    if (line.find("\"wall_s\"") == std::string::npos && line.find("\"synthesis_s\"") == std::string::npos &&
        line.find("\"simulation_s\"") == std::string::npos) {
      out += line + "\n";
    }
  }
  return out;
}

// Also without what only the engine's work counts (events, trains, reused
// windows): a traced run moves every packet, an untraced one may reuse.
inline std::string without_engine_counts(const std::string& json) {
  std::string out, line;
  std::istringstream in(without_timings(json));
  while (std::getline(in, line)) {
    if (line.find("\"events\"") == std::string::npos && line.find("\"trains\"") == std::string::npos &&
        line.find("\"reused\"") == std::string::npos) {
      out += line + "\n";
    }
  }
  return out;
}

struct HostileLimits {
  double seconds = 10;
  long peak_rss_kib = 2L * 1024 * 1024;  // 2 GiB
};

// Runs PHOTONSIM_BINARY with `args` (no shell: each element is one argv
// entry), stdin from `stdin_path` (default /dev/null), stdout and stderr
// captured under `dir`; kills it at the time limit.
inline HostileOutcome run_photonsim(const std::vector<std::string>& args, const fs::path& dir,
                                    const HostileLimits& limits = {}, const std::string& stdout_path = "",
                                    const std::string& stdin_path = "/dev/null") {
  const fs::path out = stdout_path.empty() ? dir / "hostile_stdout.txt" : fs::path(stdout_path);
  const fs::path err = dir / "hostile_stderr.txt";
  // PHOTONSIM_BATTERY_BINARY runs the battery against another build (an
  // older commit, say) to see which cases it fails.
  const char* other = std::getenv("PHOTONSIM_BATTERY_BINARY");
  std::vector<std::string> argv_strings{other != nullptr && *other != '\0' ? other : PHOTONSIM_BINARY};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);

  const auto begin = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int in_fd = ::open(stdin_path.c_str(), O_RDONLY);
    const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in_fd < 0 || out_fd < 0 || err_fd < 0) ::_exit(125);
    ::dup2(in_fd, 0);
    ::dup2(out_fd, 1);
    ::dup2(err_fd, 2);
    ::execv(argv[0], argv.data());
    ::_exit(126);
  }
  HostileOutcome o;
  int status = 0;
  struct rusage usage {};
  for (;;) {
    const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - begin;
    if (elapsed.count() > limits.seconds && !o.timed_out) {
      o.timed_out = true;
      ::kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  o.peak_rss_kib = usage.ru_maxrss;
  if (WIFEXITED(status)) o.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  if (stdout_path.empty()) o.out = slurp(out);
  o.err = slurp(err);
  return o;
}

// The battery's one assertion: refused with exit 1 or 2, in time, within the
// memory limit, one line on stderr holding every fragment.
inline void expect_refused(const HostileOutcome& o, const std::string& what, const std::vector<std::string>& fragments,
                           const HostileLimits& limits = {}) {
  EXPECT_FALSE(o.timed_out) << what << ": still running after " << limits.seconds << " s";
  EXPECT_EQ(o.signal, 0) << what << ": killed by signal " << o.signal << "; stderr: " << o.err;
  EXPECT_TRUE(o.code == 1 || o.code == 2) << what << ": exit " << o.code << "; stderr: " << o.err;
  EXPECT_LE(o.peak_rss_kib, limits.peak_rss_kib) << what << ": peak memory " << o.peak_rss_kib << " KiB";
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << what << ": not one line: " << o.err;
  for (const std::string& f : fragments) {
    EXPECT_NE(o.err.find(f), std::string::npos) << what << ": '" << f << "' missing from: " << o.err;
  }
}

// A fixture with a fresh scratch folder per test.
class Hostile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) /
           ("photonsim_hostile_" + std::string(info->test_suite_name()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir_, ec);
  }

  std::string write(const std::string& name, const std::string& content) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  HostileOutcome run(const std::vector<std::string>& args, const HostileLimits& limits = {}) {
    return run_photonsim(args, dir_, limits);
  }
  // Runs and expects a proper refusal naming every fragment.
  void refuse(const std::vector<std::string>& args, const std::vector<std::string>& fragments,
              const HostileLimits& limits = {}) {
    std::string what;
    for (const std::string& a : args) what += (what.empty() ? "" : " ") + a.substr(0, 120);
    expect_refused(run(args, limits), what, fragments, limits);
  }
  static std::string source(const std::string& relative) { return std::string(PHOTONSIM_SOURCE_DIR) + "/" + relative; }
  static std::string quickstart() { return source("configs/quickstart.yaml"); }

  fs::path dir_;
};

}  // namespace photonsim_test
