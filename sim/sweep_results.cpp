#include "sim/sweep_results.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

#include "core/atomic_file.h"
#include "core/error.h"
#include "sim/config_loader.h"
#include "sim/experiment_runner.h"

namespace photonsim {

namespace {

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

}  // namespace

std::string sweep_point_answer(const SweepSpec& spec, const SweepPoint& point, const SynthesizerRegistry& registry) {
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

SweepResults::SweepResults(const SweepSpec& spec, const std::string& out_dir, bool resume)
    : keys_(spec.keys()), points_(spec.points()), path_(out_dir + "/results.csv") {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec || !std::filesystem::is_directory(out_dir)) {
    throw Error("--out " + out_dir + ": cannot use it as the sweep's folder: " +
                (ec ? ec.message() : std::string("it exists and is not a directory")));
  }
  check_replaceable(path_);
  std::set<std::string> done;
  if (std::filesystem::exists(path_)) {
    if (!resume) throw Error(path_ + " exists: pass --resume to continue that sweep, or choose another --out");
    std::ifstream in(path_);
    std::getline(in, header_);
    const std::vector<std::string> columns = csv_split(header_);
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (i >= columns.size() || columns[i] != keys_[i]) {
        throw Error(path_ + ": its columns do not start with this sweep's keys (" + keys_.front() +
                    ", ...): a different sweep wrote it");
      }
    }
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      std::vector<std::string> fields = csv_split(line);
      fields.resize(keys_.size());
      done.insert(key_of(fields));
    }
  }
  outcome_.points = points_.size();
  for (size_t i = 0; i < points_.size(); ++i) {
    std::vector<std::string> values;
    for (const auto& kv : points_[i].values) values.push_back(kv.second);
    if (done.count(key_of(values))) {
      ++outcome_.skipped;
    } else {
      pending_.push_back(i);
    }
  }
}

SweepResults::~SweepResults() {
  if (fd_ >= 0) ::close(fd_);
}

void SweepResults::append(const std::string& text) {
  if (fd_ < 0) {
    if (!std::filesystem::exists(path_)) write_file_atomically(path_, header_ + "\n");
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd_ < 0) throw Error(path_ + ": cannot open for appending: " + std::strerror(errno));
  }
  write_all(fd_, text);  // one write per row: a kill never leaves half a row
  ::fdatasync(fd_);
}

void SweepResults::record(size_t index, const std::string& answer, std::ostream& log, bool progress_line) {
  const SweepPoint& point = points_.at(index);
  if (answer.rfind("ok\n", 0) != 0) {
    ++outcome_.failed;
    std::string where;
    for (const auto& [k, v] : point.values) where += (where.empty() ? "" : ", ") + k + "=" + v;
    const std::string why = answer.rfind("error\n", 0) == 0 ? answer.substr(6) : answer;
    log << (progress_line ? "\n" : "") << "point " << index << " (" << where << "): " << why << "\n";
    return;
  }
  std::istringstream lines(answer.substr(3));
  std::string run_header, run_row;
  std::getline(lines, run_header);
  std::getline(lines, run_row);
  std::string full_header;
  for (const std::string& k : keys_) full_header += csv_field(k) + ",";
  full_header += run_header + ",algbw_GBps,busbw_GBps";
  if (header_.empty()) header_ = full_header;
  if (header_ != full_header) {
    throw Error(path_ + ": its columns differ from this photonsim's (" + full_header.substr(0, 60) +
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
  ++outcome_.ran;
}

}  // namespace photonsim
