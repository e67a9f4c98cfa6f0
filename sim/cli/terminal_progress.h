#pragma once
// Contract: RunProgress for the command line. Warns (one line, always) when a
// run will fire more than kWarnEvents events; once a run has taken more than
// three seconds it keeps one status line up to date on the stream, if that
// stream is a terminal (as sweeps do): the step, the events, the time so far
// and, from the steps done, about how long is left; it ends the line with a
// newline.
#include <chrono>
#include <ostream>

#include "sim/engine/run_progress.h"

namespace photonsim {

class TerminalProgress : public RunProgress {
 public:
  static constexpr uint64_t kWarnEvents = 1000000000;

  TerminalProgress(std::ostream& err, bool is_terminal) : err_(err), is_terminal_(is_terminal) {}
  ~TerminalProgress() override;
  void starting(uint64_t minimum_events, size_t steps) override;
  void advanced(size_t step, size_t steps, uint64_t events) override;

 private:
  std::ostream& err_;
  bool is_terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point begin_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_shown_{};
};

}  // namespace photonsim
