#include "sim/reports/plan_report.h"

#include "sim/reports/json_text.h"

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
  std::snprintf(line, sizeof line, "%-16s %14s %9s  %s\n", "planner", "predicted", "reconfigs", "reconfigures before steps: topology");
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
        << (joint ? " (photonsim run with synthesis.reconfigurations=auto runs it; R = alpha_r, T = one chunk over one hop)\n"
                  : " (photonsim run with synthesis.planner=auto runs it)\n");
  }
  return out.str();
}

std::string PlanReport::json() const {
  std::ostringstream out;
  out << "{\n  \"best\": " << (outcomes.empty() || !outcomes.front().schedule ? "null" : json_string(outcomes.front().label()))
      << ",\n  \"planners\": [";
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const auto& o = outcomes[i];
    out << (i ? "," : "") << "\n    {\"planner\": " << json_string(o.label()) << ", \"ok\": " << (o.schedule ? "true" : "false");
    if (o.schedule) {
      const Schedule& s = *o.schedule;
      out << ", \"predicted_ps\": " << s.prediction().total().picoseconds() << ", \"reconfigurations\": " << s.reconfigurations()
          << ", \"reconfigure_before_steps\": [";
      const std::vector<size_t> steps = reconfiguring_steps(s);
      for (size_t j = 0; j < steps.size(); ++j) out << (j ? ", " : "") << steps[j];
      out << "], \"topologies\": [";
      for (size_t j = 0; j < steps.size(); ++j) {
        out << (j ? ", " : "") << json_string(s.topologies()[static_cast<size_t>(s.steps()[steps[j]].topology)].name());
      }
      out << "]";
      if (!o.construction.empty()) {
        out << ", \"hop_sum_T\": " << (o.hop_sum >= 0 ? std::to_string(o.hop_sum) : "null")
            << ", \"construction\": " << json_string(o.construction);
      }
    } else {
      out << ", \"error\": " << json_string(o.error);
    }
    out << "}";
  }
  out << "\n  ]\n}\n";
  return out.str();
}

}  // namespace photonsim
