#include "sim/sweep_runner.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "schedules/synthesizer_registry.h"
#include "sim/config_loader.h"
#include "sim/experiment_runner.h"

namespace photonsim {

namespace {

// The child's answer: "ok\n" + header + "\n" + row, or "error\n" + message.
std::string run_point(const SweepSpec& spec, const SweepPoint& point, const SynthesizerRegistry& registry) {
  try {
    const ExperimentConfig config = load_config(spec.base, point.overrides());
    const RunReport report = run_experiment(config, registry);
    return "ok\n" + report.csv();
  } catch (const Error& e) {
    return std::string("error\n") + e.what();
  } catch (const std::exception& e) {
    return std::string("error\ninternal error: ") + e.what();
  }
}

std::string read_all(int fd) {
  std::string out;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got > 0) {
      out.append(buffer, static_cast<size_t>(got));
    } else if (got == 0 || errno != EINTR) {
      return out;
    }
  }
}

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t put = ::write(fd, text.data() + done, text.size() - done);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) throw Error(std::string("cannot write results: ") + std::strerror(errno));
    done += static_cast<size_t>(put);
  }
}

double nccl_bus_factor(const std::string& collective, double n) {
  if (collective == "allreduce") return 2.0 * (n - 1) / n;
  if (collective == "broadcast") return 1.0;
  return (n - 1) / n;  // alltoall, reducescatter, allgather
}

std::string fixed(double v, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << v;
  return out.str();
}

// The bandwidth columns from the run's own columns.
std::pair<std::string, std::string> bandwidths(const std::map<std::string, std::string>& row) {
  const std::string collective = row.at("collective");
  const double n = std::stod(row.at("gpus"));
  const double message = std::stod(row.at("message_bytes"));
  const double seconds = std::stod(row.at("measured_ps")) * 1e-12;
  if (seconds <= 0) return {"", ""};
  const double per_rank = collective == "alltoall" ? message * n : message;
  const double algbw = per_rank / seconds / 1e9;
  return {fixed(algbw, 6), fixed(algbw * nccl_bus_factor(collective, n), 6)};
}

std::string key_of(const std::vector<std::string>& values) {
  std::string key;
  for (const std::string& v : values) key += v + '\x1f';
  return key;
}

class ProgressBar {
 public:
  ProgressBar(std::ostream& log, size_t total, bool enabled)
      : log_(log), total_(total), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}
  void update(size_t done) {
    if (!enabled_ || total_ == 0) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const size_t width = 30, filled = width * done / total_;
    log_ << "\r[" << std::string(filled, '=') << std::string(width - filled, ' ') << "] " << done << "/" << total_;
    if (done > 0 && done < total_) {
      log_ << "  ETA " << static_cast<long>(elapsed / static_cast<double>(done) * static_cast<double>(total_ - done)) << " s  ";
    } else {
      log_ << "  " << static_cast<long>(elapsed) << " s      ";
    }
    if (done == total_) log_ << "\n";
    log_.flush();
  }

 private:
  std::ostream& log_;
  size_t total_;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

std::string csv_field(const std::string& value) {
  if (value.find_first_of(",\"\n\r") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

SweepOutcome run_sweep(const SweepSpec& spec, const SweepOptions& options, std::ostream& log) {
  if (options.jobs < 1) throw Error("--jobs must be at least 1, got " + std::to_string(options.jobs));
  const std::vector<std::string> keys = spec.keys();
  const std::vector<SweepPoint> points = spec.points();
  std::filesystem::create_directories(options.out_dir);
  const std::string results = options.out_dir + "/results.csv";
  std::set<std::string> done;
  std::string header;  // known once the file exists or the first point returns
  if (std::filesystem::exists(results)) {
    if (!options.resume) {
      throw Error(results + " exists: pass --resume to continue that sweep, or choose another --out");
    }
    std::ifstream in(results);
    std::getline(in, header);
    const std::vector<std::string> columns = csv_split(header);
    for (size_t i = 0; i < keys.size(); ++i) {
      if (i >= columns.size() || columns[i] != keys[i]) {
        throw Error(results + ": its columns do not start with this sweep's keys (" + keys.front() +
                    ", ...): a different sweep wrote it");
      }
    }
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      std::vector<std::string> fields = csv_split(line);
      fields.resize(keys.size());
      done.insert(key_of(fields));
    }
  }
  SweepOutcome outcome;
  outcome.points = points.size();
  std::vector<size_t> pending;
  for (size_t i = 0; i < points.size(); ++i) {
    std::vector<std::string> values;
    for (const auto& kv : points[i].values) values.push_back(kv.second);
    if (done.count(key_of(values))) {
      ++outcome.skipped;
    } else {
      pending.push_back(i);
    }
  }
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  ProgressBar progress(log, pending.size(), options.progress);
  progress.update(0);
  int results_fd = -1;
  auto append = [&](const std::string& text) {
    if (results_fd < 0) {
      if (!std::filesystem::exists(results)) write_file_atomically(results, header + "\n");
      results_fd = ::open(results.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
      if (results_fd < 0) throw Error(results + ": cannot open for appending: " + std::strerror(errno));
    }
    write_all(results_fd, text);  // one write per row: a kill never leaves half a row
    ::fdatasync(results_fd);
  };
  struct Child {
    size_t point;
    int fd;
  };
  std::map<pid_t, Child> running;
  size_t next = 0, finished = 0;
  while (next < pending.size() || !running.empty()) {
    while (next < pending.size() && static_cast<int>(running.size()) < options.jobs) {
      int fds[2];
      if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
      const size_t index = pending[next++];
      log.flush();
      const pid_t pid = ::fork();
      if (pid < 0) throw Error(std::string("cannot start a sweep worker: ") + std::strerror(errno));
      if (pid == 0) {
        ::close(fds[0]);
        const std::string answer = run_point(spec, points[index], registry);
        try {
          write_all(fds[1], answer);
        } catch (...) {
          ::_exit(2);
        }
        ::_exit(0);
      }
      ::close(fds[1]);
      running[pid] = Child{index, fds[0]};
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("waiting for sweep workers: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Child child = it->second;
    running.erase(it);
    const std::string answer = read_all(child.fd);
    ::close(child.fd);
    ++finished;
    const SweepPoint& point = points[child.point];
    std::string where;
    for (const auto& [k, v] : point.values) where += (where.empty() ? "" : ", ") + k + "=" + v;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || answer.rfind("ok\n", 0) != 0) {
      ++outcome.failed;
      std::string why = answer.rfind("error\n", 0) == 0 ? answer.substr(6) : "worker died";
      if (WIFSIGNALED(status)) why = "worker killed by signal " + std::to_string(WTERMSIG(status));
      log << (options.progress ? "\n" : "") << "point " << child.point << " (" << where << "): " << why << "\n";
      progress.update(finished);
      continue;
    }
    std::istringstream lines(answer.substr(3));
    std::string run_header, run_row;
    std::getline(lines, run_header);
    std::getline(lines, run_row);
    std::string full_header;
    for (const std::string& k : keys) full_header += csv_field(k) + ",";
    full_header += run_header + ",algbw_GBps,busbw_GBps";
    if (header.empty()) header = full_header;
    if (header != full_header) {
      throw Error(results + ": its columns differ from this photonsim's (" + full_header.substr(0, 60) +
                  "...): a different version wrote it");
    }
    std::map<std::string, std::string> row;
    const std::vector<std::string> names = csv_split(run_header), values = csv_split(run_row);
    for (size_t i = 0; i < names.size() && i < values.size(); ++i) row[names[i]] = values[i];
    const auto [algbw, busbw] = bandwidths(row);
    std::string line;
    for (const auto& kv : point.values) line += csv_field(kv.second) + ",";
    line += run_row + "," + algbw + "," + busbw + "\n";
    append(line);
    ++outcome.ran;
    progress.update(finished);
  }
  if (results_fd >= 0) ::close(results_fd);
  return outcome;
}

}  // namespace photonsim
