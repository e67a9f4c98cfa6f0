#pragma once
// Contract: `photonsim sweep`: runs every point of a SweepSpec and writes one
// tidy CSV row per point to OUT/results.csv: the swept keys (as given, in axis
// order), the run's scalar columns (RunReport::csv, which include `seed` and
// `version`), then `algbw_GBps` and `busbw_GBps` with the nccl-tests factors
// (bytes per rank S = message, or message x n for all-to-all whose message is
// per flow; busbw = algbw x 2(n-1)/n for AllReduce, (n-1)/n for all-to-all,
// reduce-scatter and all-gather, 1 for broadcast). Points run in up to `jobs`
// child processes; each finished row is appended with one write and synced,
// so an interrupted sweep keeps exactly its finished rows, never a partial
// one. With `resume`, points whose swept values already have a row are
// skipped; without it an existing results.csv is an error (nothing is
// overwritten). A point whose config is invalid is reported on `log` and
// written nowhere; run_sweep then returns failed > 0.
#include <cstddef>
#include <ostream>
#include <string>

#include "sim/sweep_spec.h"

namespace photonsim {

struct SweepOptions {
  int jobs = 1;
  std::string out_dir;
  bool resume = false;
  bool progress = false;  // a progress bar with ETA on `log`
};

struct SweepOutcome {
  size_t points = 0;
  size_t skipped = 0;  // already in results.csv (resume)
  size_t ran = 0;
  size_t failed = 0;
};

SweepOutcome run_sweep(const SweepSpec& spec, const SweepOptions& options, std::ostream& log);

// CSV helpers shared with tests: a field quoted when it holds a comma, quote
// or newline; one line split back into fields.
std::string csv_field(const std::string& value);
std::vector<std::string> csv_split(const std::string& line);

}  // namespace photonsim
