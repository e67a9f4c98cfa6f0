#pragma once
// Contract: `photonsim sweep`: runs every point of a SweepSpec still missing
// from OUT/results.csv (SweepResults: one tidy row per point, appended as it
// finishes). Locally, points run in up to `jobs` child processes (or
// threads: SweepOptions::in_process). Under MPI
// (mpirun, when photonsim is built with MPI) rank r runs the pending points
// r, r + size, ... and rank 0 writes every row, so the file has the same rows
// as a local run (in another order). A point whose config is invalid is
// reported on `log` and written nowhere; the outcome then has failed > 0.
#include <ostream>
#include <optional>
#include <string>

#include "core/memory_budget.h"

#include "sim/sweep/sweep_results.h"
#include "sim/sweep/sweep_spec.h"

namespace photonsim {

struct SweepOptions {
  int jobs = 1;
  std::string out_dir;
  bool resume = false;
  bool progress = false;  // a progress bar with ETA on `log`
  // Each point's memory estimate is checked against it (the point fails,
  // naming the estimate); none when unset.
  std::optional<MemoryBudget> memory;
  // Points run in `jobs` threads of this process instead of child
  // processes (the pipeline holds no global state, so points share
  // nothing): the Python package's way, since forking an interpreter with
  // pandas loaded costs ~5 ms a point, more than a quickstart point's run.
  // A child process keeps a crash or the OOM killer to its point; a
  // thread does not (bad_alloc still fails the point alone).
  bool in_process = false;
};

SweepOutcome run_sweep(const SweepSpec& spec, const SweepOptions& options, std::ostream& log);

}  // namespace photonsim
