#pragma once
// Contract: DIR/results.csv of one sweep, shared by the local and the MPI
// runners. The constructor reads an existing file (an error without
// `resume`, or when its columns do not start with this sweep's keys) and
// lists the points still to run. record() takes a point's answer
// (sweep_point_answer) and appends its row with one synced write - the
// swept values, the run's CSV columns (algbw_GBps and busbw_GBps among them;
// empty for a task graph) and `point`, the point's index in points() order,
// since rows land as points finish - or
// reports a failed point on the log. Rows never repeat a point. It holds an
// exclusive lock on the folder (a second sweep there is refused), refuses to
// resume a file started with a different base config (results.csv.base_hash)
// and drops a torn last row so that its point runs again.
#include <cstddef>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "core/memory_budget.h"
#include "core/output_guard.h"
#include "sim/app/experiment_pipeline.h"
#include "sim/reports/csv_text.h"
#include "sim/sweep/sweep_spec.h"

namespace photonsim {

struct FailedPoint {
  size_t point = 0;    // its index in SweepSpec::points() order
  std::string reason;  // the one-line message the log shows
};

struct SweepOutcome {
  size_t points = 0;
  size_t skipped = 0;  // already in results.csv (resume)
  size_t ran = 0;
  size_t failed = 0;
  bool report = true;  // false on MPI ranks other than 0, which write nothing
  std::vector<FailedPoint> failures;  // every failed point and why, as they finished (Python keeps them)
};

// The files a sweep writes in `out_dir`: results.csv, results.csv.base_hash,
// the lock .results.lock and the provenance files (sim/reports/provenance.h,
// written by the command line). None may be an input of the sweep or of a
// point.
std::vector<NamedPath> sweep_outputs(const std::string& out_dir);

// Runs one point: "ok\n" + the run's CSV (header and row), or "error\n" + why.
// The point runs through `pipeline`, as photonsim run would: with a memory
// budget, a point whose estimate (sim/app/memory_estimate.h) passes the limit
// fails without running. A point that reads one of `outputs` (a graph file
// named results.csv, say) fails without running.
std::string sweep_point_answer(const SweepSpec& spec, const SweepPoint& point, const ExperimentPipeline& pipeline,
                               const std::vector<NamedPath>& outputs = {});

class SweepResults {
 public:
  SweepResults(const SweepSpec& spec, const std::string& out_dir, bool resume);
  ~SweepResults();
  SweepResults(const SweepResults&) = delete;
  SweepResults& operator=(const SweepResults&) = delete;

  const std::vector<SweepPoint>& points() const { return points_; }
  const std::vector<size_t>& pending() const { return pending_; }
  const std::string& path() const { return path_; }
  void record(size_t point, const std::string& answer, std::ostream& log, bool progress_line);
  const SweepOutcome& outcome() const { return outcome_; }
  // What the constructor repaired or skipped (a torn row), for the log.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  void lock_folder(const std::string& out_dir);
  void release();  // closes results.csv and the lock
  void check_base_hash(const std::string& base) const;
  std::set<std::string> points_already_run();
  CsvRecords records_without_torn_row();
  void queue_pending(const std::set<std::string>& done);
  void append(const std::string& text);

  std::vector<std::string> keys_;
  std::vector<SweepPoint> points_;
  std::vector<size_t> pending_;
  std::string path_;
  std::string hash_path_;  // results.csv.base_hash: the base config's content hash
  std::string base_hash_;
  std::string header_;
  std::vector<std::string> notes_;
  int fd_ = -1;
  int lock_fd_ = -1;  // flock on DIR/.results.lock, held for the object's life
  SweepOutcome outcome_;
};

}  // namespace photonsim
