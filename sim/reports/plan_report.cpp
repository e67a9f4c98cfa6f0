#include "sim/reports/plan_report.h"

#include "sim/reports/json_text.h"
#include "sim/reports/json_writer.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace photonsim {

PlanReport PlanReport::rank(std::vector<PlanCandidate> outcomes) {
  std::stable_sort(outcomes.begin(), outcomes.end(), [](const auto& a, const auto& b) {
    if (a.ok() != b.ok()) return a.ok();
    return a.ok() && a.summary->predicted < b.summary->predicted;
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
    if (!o.ok()) {
      std::snprintf(line, sizeof line, "%-16s %14s %9s  ", o.label().c_str(), "-", "-");
      out << line << "cannot: " << o.error << "\n";
      continue;
    }
    const CandidateSummary& s = *o.summary;
    std::string where;
    for (const auto& [step, topology] : s.reconfigure_before) {
      where += (where.empty() ? "" : ", ") + std::to_string(step) + ": " + topology;
    }
    std::snprintf(line, sizeof line, "%-16s %14s %9d  ", o.label().c_str(), format_time(s.predicted).c_str(),
                  s.reconfigurations);
    out << line;
    if (o.hop_sum >= 0) {
      out << s.reconfigurations << "R + " << o.hop_sum << "T (" << o.construction << "); ";
    } else if (!o.construction.empty()) {
      out << "(" << o.construction << "); ";
    }
    out << (where.empty() ? "none" : where) << "\n";
  }
  if (!outcomes.empty() && outcomes.front().ok()) {
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
  outcomes.empty() || !outcomes.front().ok() ? out.null() : out.string(outcomes.front().label());
  out.key("planners").begin_array();
  for (const PlanCandidate& o : outcomes) {
    out.begin_object(JsonWriter::Layout::inline_).field("planner", o.label()).field("ok", o.ok());
    if (!o.ok()) {
      out.field("error", o.error).end_object();
      continue;
    }
    const CandidateSummary& s = *o.summary;
    out.field("predicted_ps", s.predicted.picoseconds()).field("reconfigurations", s.reconfigurations);
    out.key("reconfigure_before_steps").begin_array(JsonWriter::Layout::inline_);
    for (const auto& reconfiguration : s.reconfigure_before) out.integer(static_cast<int64_t>(reconfiguration.first));
    out.end_array().key("topologies").begin_array(JsonWriter::Layout::inline_);
    for (const auto& reconfiguration : s.reconfigure_before) out.string(reconfiguration.second);
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
