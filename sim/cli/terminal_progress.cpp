#include "sim/cli/terminal_progress.h"

#include <cstdio>

namespace photonsim {

TerminalProgress::~TerminalProgress() {
  if (shown_) err_ << "\n" << std::flush;
}

void TerminalProgress::starting(uint64_t minimum_events, size_t steps) {
  begin_ = std::chrono::steady_clock::now();
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
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - begin_).count();
  if (elapsed < 3 || (shown_ && now - last_shown_ < std::chrono::milliseconds(500))) return;
  // The time left from the steps done so far, as if the rest took as long.
  char left[64] = "";
  if (step + 1 < steps) {
    std::snprintf(left, sizeof left, ", about %.0f s left",
                  elapsed * static_cast<double>(steps - step - 1) / static_cast<double>(step + 1));
  }
  char line[200];
  std::snprintf(line, sizeof line, "\rphotonsim: step %zu/%zu, %.3g events, %.0f s%s  ", step + 1, steps,
                static_cast<double>(events), elapsed, left);
  err_ << line << std::flush;
  shown_ = true;
  last_shown_ = now;
}

}  // namespace photonsim
