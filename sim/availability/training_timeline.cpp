// A training job over a timeline of port outages (training_timeline.h).
#include "sim/availability/training_timeline.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "core/error.h"

namespace photonsim {

const char* to_string(IterationPlan plan) {
  switch (plan) {
    case IterationPlan::configured:
      return "configured";
    case IterationPlan::replanned:
      return "replanned";
    case IterationPlan::static_fallback:
      return "static_fallback";
  }
  return "?";
}

Time LostTime::total() const {
  return detection + reconfiguration + degraded + waiting + flaps + watchdog + restart + rollback;
}

namespace {

enum class Cause { detection, reconfiguration, flaps, watchdog, restart };

Time& lost_to(LostTime& lost, Cause cause) {
  switch (cause) {
    case Cause::detection:
      return lost.detection;
    case Cause::reconfiguration:
      return lost.reconfiguration;
    case Cause::flaps:
      return lost.flaps;
    case Cause::watchdog:
      return lost.watchdog;
    case Cause::restart:
      return lost.restart;
  }
  return lost.flaps;
}

// One job's state while the timeline is replayed: where its iteration is,
// what stalls it, and the fabric it sees.
class Job {
 public:
  Job(const IterationTimes& times, const PolicyCosts& costs) : times_(times), costs_(costs) {
    healthy_ = *times_(IterationPlan::configured, {});
    iteration_ = healthy_;
    next_checkpoint_ = costs_.policy == FailurePolicy::abort_restart ? costs_.checkpoint_interval : Time::max();
  }

  Time next_checkpoint() const { return next_checkpoint_; }

  // Runs, stalls or waits from now to `to`.
  void advance(Time to) {
    while (now_ < to) {
      if (!pauses_.empty()) {
        auto& [until, cause] = pauses_.front();
        const Time end = std::min(to, until);
        lost_to(out_.lost, cause) += end - now_;
        now_ = end;
        if (now_ == until) pauses_.erase(pauses_.begin());
        continue;
      }
      if (!iteration_) {
        out_.lost.waiting += to - now_;
        now_ = to;
        continue;
      }
      run_for(to - now_, *iteration_);
    }
  }

  void checkpoint() {
    useful_at_checkpoint_ = out_.useful_iterations;
    last_checkpoint_ = now_;
    next_checkpoint_ = now_ + costs_.checkpoint_interval;
  }

  void fail(const PortOutage& outage) {
    if (outage.flap) {
      ++out_.flaps;
      pause_until(now_ + std::max(outage.end - outage.start, costs_.detection), Cause::flaps);
      return;
    }
    ++out_.port_failures;
    if (costs_.policy == FailurePolicy::abort_restart) {
      if (now_ < restarting_until_) return;  // the restart under way swaps this host too
      ++out_.restarts;
      out_.lost.rollback += now_ - last_checkpoint_;
      out_.useful_iterations = useful_at_checkpoint_;
      done_ = 0;  // the iteration under way is redone; its wall time carries the restart
      pause_until(now_ + costs_.watchdog_timeout, Cause::watchdog);
      restarting_until_ = now_ + costs_.watchdog_timeout + costs_.restart_time;
      pause_until(restarting_until_, Cause::restart);
      last_checkpoint_ = restarting_until_;
      next_checkpoint_ = restarting_until_ + costs_.checkpoint_interval;
      return;
    }
    down_.insert({outage.gpu, outage.port});
    change_fabric(/*detected=*/true);
  }

  void repair(const PortOutage& outage) {
    if (outage.flap || down_.erase({outage.gpu, outage.port}) == 0) return;
    change_fabric(/*detected=*/false);
  }

  TimelineOutcome finish() {
    out_.lost.degraded = Time::ps(std::llround(degraded_ps_));
    return std::move(out_);
  }

 private:
  std::vector<int> lost_switches() const {
    std::set<int> ports;
    for (const auto& [gpu, port] : down_) ports.insert(port);
    return {ports.begin(), ports.end()};
  }

  // The fabric the job sees changed: a port went down (detected) or came back.
  void change_fabric(bool detected) {
    if (costs_.policy == FailurePolicy::wait) {
      iteration_ = down_.empty() ? std::optional<Time>(healthy_) : std::nullopt;
      return;
    }
    const std::vector<int> lost = lost_switches();
    if (lost == planned_without_) return;  // that switch was out of the plan already
    planned_without_ = lost;
    ++out_.replans;
    const IterationPlan plan = lost.empty()                                      ? IterationPlan::configured
                               : costs_.policy == FailurePolicy::static_fallback ? IterationPlan::static_fallback
                                                                                 : IterationPlan::replanned;
    iteration_ = times_(plan, lost);
    const Time known = detected ? now_ + costs_.detection : now_;
    if (detected) pause_until(known, Cause::detection);
    pause_until(known + costs_.reconfiguration, Cause::reconfiguration);
  }

  // A stall until `until`; where stalls overlap, each cause keeps only what
  // it adds past the ones before it.
  void pause_until(Time until, Cause cause) {
    const Time last = pauses_.empty() ? now_ : pauses_.back().first;
    if (until > last) pauses_.push_back({until, cause});
  }

  void run_for(Time span, Time iteration) {
    if (iteration != healthy_)
      degraded_ps_ +=
          static_cast<double>(span.picoseconds()) *
          (1.0 - static_cast<double>(healthy_.picoseconds()) / static_cast<double>(iteration.picoseconds()));
    const double period = static_cast<double>(iteration.picoseconds());
    const Time remaining = iteration - Time::ps(std::llround(done_ * period));
    if (span < remaining) {
      done_ += static_cast<double>(span.picoseconds()) / period;
      now_ += span;
      return;
    }
    now_ += remaining;
    complete(now_ - iteration_start_, 1);
    span -= remaining;
    const int64_t whole = span.picoseconds() / iteration.picoseconds();
    if (whole > 0) complete(iteration, whole);
    now_ += iteration * whole;
    span -= iteration * whole;
    iteration_start_ = now_;
    done_ = static_cast<double>(span.picoseconds()) / period;
    now_ += span;
  }

  void complete(Time wall, int64_t count) {
    out_.iteration_times[wall] += count;
    out_.useful_iterations += count;
    out_.completed_iterations += count;
  }

  const IterationTimes& times_;
  const PolicyCosts& costs_;
  Time healthy_;
  std::optional<Time> iteration_;  // none: nothing can run (waiting)
  Time now_;
  Time iteration_start_;
  double done_ = 0;  // of the iteration under way
  std::vector<std::pair<Time, Cause>> pauses_;
  std::set<std::pair<int, int>> down_;  // (gpu, port) the job sees down
  std::vector<int> planned_without_;
  Time restarting_until_;
  Time last_checkpoint_;
  Time next_checkpoint_;
  int64_t useful_at_checkpoint_ = 0;
  double degraded_ps_ = 0;
  TimelineOutcome out_;
};

}  // namespace

TrainingTimeline::TrainingTimeline(IterationTimes times, PolicyCosts costs, Time horizon)
    : times_(std::move(times)), costs_(costs), horizon_(horizon) {
  const std::optional<Time> healthy = times_(IterationPlan::configured, {});
  if (!healthy || *healthy <= Time::zero()) throw Error("TrainingTimeline: the healthy iteration must take time");
  if (costs_.policy == FailurePolicy::abort_restart && costs_.checkpoint_interval <= Time::zero())
    throw Error("TrainingTimeline: abort_restart needs a positive checkpoint interval");
}

TimelineOutcome TrainingTimeline::run(const std::vector<PortOutage>& outages) const {
  // Every change of the fabric, in time order: repairs before failures at
  // one instant (a port back and another down at once leaves one down).
  struct Change {
    Time at;
    bool repair;
    size_t outage;
  };
  std::vector<Change> changes;
  for (size_t i = 0; i < outages.size(); ++i) {
    if (outages[i].start < horizon_) changes.push_back({outages[i].start, false, i});
    if (outages[i].end < horizon_) changes.push_back({outages[i].end, true, i});
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const Change& a, const Change& b) { return a.at != b.at ? a.at < b.at : a.repair > b.repair; });
  Job job(times_, costs_);
  size_t next = 0;
  while (true) {
    const Time change = next < changes.size() ? changes[next].at : horizon_;
    if (job.next_checkpoint() < change && job.next_checkpoint() < horizon_) {
      job.advance(job.next_checkpoint());
      job.checkpoint();
      continue;
    }
    job.advance(change);
    if (next == changes.size()) break;
    const Change& c = changes[next++];
    if (c.repair)
      job.repair(outages[c.outage]);
    else
      job.fail(outages[c.outage]);
  }
  return job.finish();
}

}  // namespace photonsim
