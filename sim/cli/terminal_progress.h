#pragma once
// Contract: RunProgress for the command line. Warns (one line, always) when a
// run will fire more than kWarnEvents events; once a synthesis or a
// simulation has taken more than show_after (three seconds) it keeps one
// status line up to date on the stream, if that stream is a terminal (as
// sweeps do): for a synthesis the stage and how far it is, for a simulation
// the step and the events; both with the time so far and, from the work
// done, about how long is left ("at most about" / "at least about" where the
// stage's total is a bound). The simulation's line replaces the synthesis's
// on a new line; the last line ends with a newline.
#include <chrono>
#include <ostream>
#include <string>

#include "sim/engine/run_progress.h"

namespace photonsim {

class TerminalProgress : public RunProgress {
 public:
  static constexpr uint64_t kWarnEvents = 1000000000;

  // `show_after`: how long a synthesis or simulation runs before its status line shows.
  TerminalProgress(std::ostream& err, bool is_terminal, std::chrono::milliseconds show_after = std::chrono::seconds(3))
      : err_(err), is_terminal_(is_terminal), show_after_(show_after) {}
  ~TerminalProgress() override;
  void progressed(const WorkDone& work) override;
  void starting(uint64_t minimum_events, size_t steps) override;
  void advanced(size_t step, size_t steps, uint64_t events) override;

 private:
  using Clock = std::chrono::steady_clock;
  // True when a status line is due: show_after in, half a second since the last.
  bool due(Clock::time_point now) const;
  void show(const std::string& line, Clock::time_point now);

  std::ostream& err_;
  bool is_terminal_;
  std::chrono::milliseconds show_after_;
  bool shown_ = false;
  size_t shown_width_ = 0;
  Clock::time_point begin_ = Clock::now();
  Clock::time_point last_shown_{};
  std::string stage_;
  Clock::time_point stage_begin_ = begin_;
};

}  // namespace photonsim
