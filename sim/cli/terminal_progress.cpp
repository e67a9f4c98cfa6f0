#include "sim/cli/terminal_progress.h"

#include <cstdio>

namespace photonsim {

TerminalProgress::~TerminalProgress() {
  if (shown_) err_ << "\n" << std::flush;
}

bool TerminalProgress::due(Clock::time_point now) const {
  if (now - begin_ < show_after_) return false;
  return !shown_ || now - last_shown_ >= std::chrono::milliseconds(500);
}

void TerminalProgress::show(const std::string& line, Clock::time_point now) {
  // Blanks over what a longer previous line left behind.
  const std::string blanks(line.size() < shown_width_ ? shown_width_ - line.size() : 0, ' ');
  err_ << "\r" << line << blanks << std::flush;
  shown_ = true;
  shown_width_ = line.size();
  last_shown_ = now;
}

void TerminalProgress::progressed(const WorkDone& work) {
  if (!is_terminal_) return;
  const Clock::time_point now = Clock::now();
  if (work.stage != stage_) {
    stage_ = std::string(work.stage);
    stage_begin_ = now;
  }
  if (!due(now) || work.total <= 0) return;
  const double elapsed = std::chrono::duration<double>(now - begin_).count();
  const double in_stage = std::chrono::duration<double>(now - stage_begin_).count();
  char amount[96] = "";
  if (work.kind != WorkTotal::exact) {
    std::snprintf(amount, sizeof amount, ": %.0f of %s %.0f", work.done,
                  work.kind == WorkTotal::at_most ? "at most" : "at least", work.total);
  } else if (work.total != 1 || work.done != 0) {  // a stage of one unit, not yet done, shows no share
    std::snprintf(amount, sizeof amount, ": %.0f%%", 100.0 * work.done / work.total);
  }
  // The time left as if the rest of the stage went at its pace so far (once
  // it has run for a second: a pace needs some time to show).
  char left[64] = "";
  if (work.done > 0 && work.done < work.total && in_stage >= 1) {
    const char* bound = work.kind == WorkTotal::exact     ? "about"
                        : work.kind == WorkTotal::at_most ? "at most about"
                                                          : "at least about";
    std::snprintf(left, sizeof left, ", %s %.0f s left", bound, in_stage * (work.total - work.done) / work.done);
  }
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.0f s", elapsed);
  show("photonsim: " + stage_ + amount + ", " + seconds + left, now);
}

void TerminalProgress::starting(uint64_t minimum_events, size_t steps) {
  if (shown_) {
    err_ << "\n" << std::flush;  // the synthesis's last line stays
    shown_ = false;
    shown_width_ = 0;
  }
  begin_ = Clock::now();
  if (minimum_events <= kWarnEvents) return;
  char line[256];
  std::snprintf(line, sizeof line,
                "photonsim: warning: this run fires at least %.3g events in %zu steps and may take minutes "
                "(a larger fabric.packet, or --fidelity chunk, needs fewer)\n",
                static_cast<double>(minimum_events), steps);
  err_ << line << std::flush;
}

void TerminalProgress::advanced(size_t step, size_t steps, uint64_t events) {
  if (!is_terminal_) return;
  const Clock::time_point now = Clock::now();
  if (!due(now)) return;
  const double elapsed = std::chrono::duration<double>(now - begin_).count();
  // The time left from the steps done so far, as if the rest took as long.
  char left[64] = "";
  if (step + 1 < steps) {
    std::snprintf(left, sizeof left, ", about %.0f s left",
                  elapsed * static_cast<double>(steps - step - 1) / static_cast<double>(step + 1));
  }
  char line[200];
  std::snprintf(line, sizeof line, "photonsim: step %zu/%zu, %.3g events, %.0f s%s", step + 1, steps,
                static_cast<double>(events), elapsed, left);
  show(line, now);
}

}  // namespace photonsim
