#include "sim/reports/plan_report.h"

#include "sim/reports/json_text.h"
#include "sim/reports/json_writer.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace photonsim {

namespace {

std::vector<size_t> reconfiguring_steps(const Schedule& s) {
  std::vector<size_t> out;
  for (size_t i = 0; i < s.steps().size(); ++i) {
    if (s.reconfigures_before(i)) out.push_back(i);
  }
  return out;
}

}  // namespace

PlanReport PlanReport::rank(std::vector<PlanCandidate> outcomes) {
  std::stable_sort(outcomes.begin(), outcomes.end(), [](const auto& a, const auto& b) {
    if (a.schedule.has_value() != b.schedule.has_value()) return a.schedule.has_value();
    return a.schedule && a.schedule->prediction().total() < b.schedule->prediction().total();
  });
  return PlanReport{std::move(outcomes)};
}

std::string PlanReport::table() const {
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof line, "%-16s %14s %9s  %s\n", "planner", "predicted", "reconfigs",
                "reconfigures before steps: topology");
  out << line;
  for (const auto& o : outcomes) {
    if (!o.schedule) {
      std::snprintf(line, sizeof line, "%-16s %14s %9s  ", o.label().c_str(), "-", "-");
      out << line << "cannot: " << o.error << "\n";
      continue;
    }
    const Schedule& s = *o.schedule;
    std::string where;
    for (size_t step : reconfiguring_steps(s)) {
      where += (where.empty() ? "" : ", ") + std::to_string(step) + ": " +
               s.topologies()[static_cast<size_t>(s.steps()[step].topology)].name();
    }
    std::snprintf(line, sizeof line, "%-16s %14s %9d  ", o.label().c_str(), format_time(s.prediction().total()).c_str(),
                  s.reconfigurations());
    out << line;
    if (o.hop_sum >= 0) {
      out << s.reconfigurations() << "R + " << o.hop_sum << "T (" << o.construction << "); ";
    } else if (!o.construction.empty()) {
      out << "(" << o.construction << "); ";
    }
    out << (where.empty() ? "none" : where) << "\n";
  }
  if (!outcomes.empty() && outcomes.front().schedule) {
    const bool joint = outcomes.front().configurations.has_value();
    out << "\nbest: " << outcomes.front().label()
        << (joint ? " (photonsim run with synthesis.reconfigurations=auto runs it; R = alpha_r, T = one chunk over one "
                    "hop)\n"
                  : " (photonsim run with synthesis.planner=auto runs it)\n");
  }
  return out.str();
}

std::string PlanReport::json() const {
  JsonWriter out;
  out.begin_object().key("best");
  outcomes.empty() || !outcomes.front().schedule ? out.null() : out.string(outcomes.front().label());
  out.key("planners").begin_array();
  for (const PlanCandidate& o : outcomes) {
    out.begin_object(JsonWriter::Layout::inline_).field("planner", o.label()).field("ok", o.schedule.has_value());
    if (!o.schedule) {
      out.field("error", o.error).end_object();
      continue;
    }
    const Schedule& s = *o.schedule;
    out.field("predicted_ps", s.prediction().total().picoseconds()).field("reconfigurations", s.reconfigurations());
    const std::vector<size_t> steps = reconfiguring_steps(s);
    out.key("reconfigure_before_steps").begin_array(JsonWriter::Layout::inline_);
    for (size_t step : steps) out.integer(static_cast<int64_t>(step));
    out.end_array().key("topologies").begin_array(JsonWriter::Layout::inline_);
    for (size_t step : steps) out.string(s.topologies()[static_cast<size_t>(s.steps()[step].topology)].name());
    out.end_array();
    if (!o.construction.empty()) {
      out.key("hop_sum_T");
      o.hop_sum >= 0 ? out.integer(o.hop_sum) : out.null();
      out.field("construction", o.construction);
    }
    out.end_object();
  }
  out.end_array().end_object();
  return out.text();
}

}  // namespace photonsim
