#include "sim/sweep/sweep_results.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "sim/config/config_loader.h"
#include "sim/reports/provenance.h"

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

std::string key_of(const std::vector<std::string>& values) {
  std::string key;
  for (const std::string& v : values) key += v + '\x1f';
  return key;
}

}  // namespace

std::vector<NamedPath> sweep_outputs(const std::string& out_dir) {
  std::vector<NamedPath> out{{"sweep output", out_dir + "/results.csv"},
                             {"sweep output", out_dir + "/results.csv.base_hash"},
                             {"sweep lock", out_dir + "/.results.lock"}};
  for (const std::string& name : provenance_file_names()) out.push_back({"sweep output", out_dir + "/" + name});
  return out;
}

std::string sweep_point_answer(const SweepSpec& spec, const SweepPoint& point, const ExperimentPipeline& pipeline,
                               const std::vector<NamedPath>& outputs) {
  try {
    const ExperimentConfig config = pipeline.load(spec.base, point.overrides());
    refuse_outputs_over_inputs(outputs, config.inputs);
    return "ok\n" + pipeline.result_csv(config);
  } catch (const Error& e) {
    return std::string("error\n") + e.what();
  } catch (const std::bad_alloc&) {
    return "error\nout of memory: this point needs more than the memory limit (--max-memory); fabric.gpus and "
           "workload.message set its size";
  } catch (const std::exception& e) {
    return std::string("error\ninternal error: ") + e.what();
  }
}

namespace {

// Whether anything is at `path` (a dangling symlink too); never throws, even
// for a path the OS rejects.
bool present(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::string read_whole(const std::string& path) { return read_input_file(path, kSweepResultsInput); }

// FNV-1a of the base config's bytes: an edited base config must not feed rows
// into a file started with the old one.
std::string content_hash(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

void use_as_sweep_folder(const std::string& out_dir) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec || !std::filesystem::is_directory(out_dir, ec)) {
    throw Error("--out " + out_dir + ": cannot use it as the sweep's folder: " +
                (ec ? ec.message() : std::string("it exists and is not a directory")));
  }
}

}  // namespace

SweepResults::SweepResults(const SweepSpec& spec, const std::string& out_dir, bool resume)
    : keys_(spec.keys()),
      points_(spec.points()),
      path_(out_dir + "/results.csv"),
      hash_path_(out_dir + "/results.csv.base_hash") {
  use_as_sweep_folder(out_dir);
  // Before the lock file is made: not even that may replace an input.
  refuse_outputs_over_inputs(sweep_outputs(out_dir), {{"sweep file", spec.source}, {"base config", spec.base}});
  lock_folder(out_dir);
  // A constructor that throws runs no destructor: the lock (and results.csv,
  // if opened) must be let go here, or a process that goes on (Python)
  // would keep every later sweep out of the folder.
  try {
    check_replaceable(path_);
    check_replaceable(hash_path_);
    base_hash_ = content_hash(read_input_file(spec.base, kConfigInput));
    std::set<std::string> done;
    if (present(path_)) {
      if (!resume) throw Error(path_ + " exists: pass --resume to continue that sweep, or choose another --out");
      check_base_hash(spec.base);
      done = points_already_run();
    }
    queue_pending(done);
  } catch (...) {
    release();
    throw;
  }
}

void SweepResults::release() {
  if (fd_ >= 0) ::close(fd_);
  if (lock_fd_ >= 0) ::close(lock_fd_);
  fd_ = lock_fd_ = -1;
}

// One sweep per folder at a time: two would interleave duplicate rows.
void SweepResults::lock_folder(const std::string& out_dir) {
  const std::string lock_path = out_dir + "/.results.lock";
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (lock_fd_ < 0) throw Error(lock_path + ": cannot open the sweep's lock: " + std::strerror(errno));
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int why = errno;
    ::close(lock_fd_);
    lock_fd_ = -1;
    if (why == EWOULDBLOCK) {
      throw Error(out_dir + ": another photonsim sweep is writing there (it holds " + lock_path +
                  "); wait for it or choose another --out");
    }
    throw Error(lock_path + ": cannot lock: " + std::strerror(why));
  }
}

// Resuming rows run with another base config would mix two experiments;
// without a hash file, the current hash is recorded.
void SweepResults::check_base_hash(const std::string& base) const {
  if (present(hash_path_)) {
    const std::string stored = read_whole(hash_path_);
    if (stored.substr(0, 16) != base_hash_) {
      throw Error(path_ + ": its rows were run with another version of the base config " + base + " (content hash " +
                  stored.substr(0, 16) + ", now " + base_hash_ +
                  "); resuming would mix the two: choose another --out, or move results.csv away");
    }
  } else {
    write_file_atomically(hash_path_, base_hash_ + "\n");
  }
}

// The existing file's rows, keyed by their swept values; its header becomes ours.
std::set<std::string> SweepResults::points_already_run() {
  const CsvRecords file = records_without_torn_row();
  if (file.records.empty()) throw Error(path_ + ": has no header line; move it away or choose another --out");
  header_ = file.records.front();
  const std::vector<std::string> columns = csv_split(header_);
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (i >= columns.size() || columns[i] != keys_[i]) {
      throw Error(path_ + ": its columns do not start with this sweep's keys (" + keys_.front() +
                  ", ...): a different sweep wrote it");
    }
  }
  std::set<std::string> done;
  for (size_t r = 1; r < file.records.size(); ++r) {
    if (file.records[r].empty()) continue;
    std::vector<std::string> fields = csv_split(file.records[r]);
    if (fields.size() != columns.size()) {
      throw Error(path_ + ": row " + std::to_string(r) + " has " + std::to_string(fields.size()) +
                  " fields, the header " + std::to_string(columns.size()) +
                  "; the file is damaged: repair or move it away");
    }
    fields.resize(keys_.size());
    done.insert(key_of(fields));
  }
  return done;
}

CsvRecords SweepResults::records_without_torn_row() {
  const std::string text = read_whole(path_);
  CsvRecords file = csv_records(text);
  if (file.torn) {
    // A row cut short (disk full, a crash): drop it so its point runs again
    // instead of gluing the next row onto it.
    if (::truncate(path_.c_str(), static_cast<off_t>(file.complete_bytes)) != 0) {
      throw Error(path_ + ": cannot drop its torn last row: " + std::strerror(errno));
    }
    notes_.push_back(path_ + ": dropped a torn last row (" + std::to_string(text.size() - file.complete_bytes) +
                     " bytes without a line end); its point runs again");
  }
  return file;
}

void SweepResults::queue_pending(const std::set<std::string>& done) {
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

SweepResults::~SweepResults() { release(); }

void SweepResults::append(const std::string& text) {
  if (fd_ < 0) {
    if (!present(path_)) {
      write_file_atomically(hash_path_, base_hash_ + "\n");
      write_file_atomically(path_, header_ + "\n");
    }
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
    outcome_.failures.push_back({index, why});
    log << (progress_line ? "\n" : "") << "point " << index << " (" << where << "): " << why << "\n";
    return;
  }
  const CsvRecords run = csv_records(answer.substr(3));
  if (run.records.size() != 2)
    throw Error("point " + std::to_string(index) + ": the run's CSV is not one header and one row");
  const std::string& run_header = run.records[0];
  const std::string& run_row = run.records[1];
  // A collective's run has the bandwidth columns; a task graph's summary
  // leaves them empty. Last, the point's index in the sweep's order (rows
  // land as points finish).
  const bool has_bandwidths = run_header.find("algbw_GBps") != std::string::npos;
  std::string full_header;
  for (const std::string& k : keys_) full_header += csv_field(k) + ",";
  full_header += run_header + (has_bandwidths ? "" : ",algbw_GBps,busbw_GBps") + ",point";
  if (header_.empty()) header_ = full_header;
  if (header_ != full_header) {
    throw Error(path_ + ": its columns differ from this photonsim's (" + full_header.substr(0, 60) +
                "...): a different version wrote it");
  }
  std::string line;
  for (const auto& kv : point.values) line += csv_field(kv.second) + ",";
  line += run_row + (has_bandwidths ? "" : ",,") + "," + std::to_string(index) + "\n";
  append(line);
  ++outcome_.ran;
}

}  // namespace photonsim
