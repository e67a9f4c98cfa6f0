// photonsim availability's report, three ways (availability_report.h).
#include "sim/availability/availability_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "core/error.h"
#include "sim/reports/csv_text.h"
#include "sim/reports/json_writer.h"
#include "sim/reports/report_numbers.h"

namespace photonsim {
namespace {

__extension__ typedef __int128 i128;

constexpr double kSecondsPerHour = 3600.0;

double hours(Time t) { return t.seconds() / kSecondsPerHour; }

const std::vector<std::pair<const char*, Time LostTime::*>>& causes() {
  static const std::vector<std::pair<const char*, Time LostTime::*>> list = {
      {"detection", &LostTime::detection}, {"reconfiguration", &LostTime::reconfiguration},
      {"degraded", &LostTime::degraded},   {"waiting", &LostTime::waiting},
      {"flaps", &LostTime::flaps},         {"watchdog", &LostTime::watchdog},
      {"restart", &LostTime::restart},     {"rollback", &LostTime::rollback}};
  return list;
}

// What one policy came to over every seed.
struct PolicySummary {
  double goodput_mean = 0;
  double goodput_median = 0;
  double goodput_min = 0;
  std::map<Time, int64_t> pooled;  // iteration times over every seed
  int64_t iterations = 0;
  std::vector<int64_t> lost_mean_ps;  // by causes()
  int64_t lost_total_mean_ps = 0;
  int port_failures = 0, flaps = 0, replans = 0, restarts = 0;
};

// Mean over seeds, rounded to the picosecond.
int64_t mean_ps(const std::vector<TimelineOutcome>& seeds, Time LostTime::*cause) {
  i128 sum = 0;
  for (const TimelineOutcome& s : seeds) sum += (s.lost.*cause).picoseconds();
  const auto n = static_cast<i128>(seeds.size());
  return static_cast<int64_t>((sum + n / 2) / n);
}

PolicySummary summarize(const PolicyOutcomes& p, Time horizon) {
  PolicySummary s;
  std::vector<double> goodputs;
  for (const TimelineOutcome& o : p.seeds) {
    goodputs.push_back(static_cast<double>(o.useful_iterations) / hours(horizon));
    for (const auto& [t, n] : o.iteration_times) s.pooled[t] += n;
    s.port_failures += o.port_failures;
    s.flaps += o.flaps;
    s.replans += o.replans;
    s.restarts += o.restarts;
  }
  for (const auto& [t, n] : s.pooled) s.iterations += n;
  double sum = 0;
  for (double g : goodputs) sum += g;
  s.goodput_mean = sum / static_cast<double>(goodputs.size());
  std::sort(goodputs.begin(), goodputs.end());
  const size_t n = goodputs.size();
  s.goodput_median = n % 2 ? goodputs[n / 2] : (goodputs[n / 2 - 1] + goodputs[n / 2]) / 2;
  s.goodput_min = goodputs.front();
  for (const auto& [name, cause] : causes()) {
    s.lost_mean_ps.push_back(mean_ps(p.seeds, cause));
    s.lost_total_mean_ps += s.lost_mean_ps.back();
  }
  return s;
}

// The nearest-rank percentile q (0 < q <= 1) of the pooled iteration times.
Time percentile(const PolicySummary& s, double q) {
  const auto rank = static_cast<int64_t>(std::ceil(q * static_cast<double>(s.iterations)));
  int64_t seen = 0;
  for (const auto& [t, n] : s.pooled) {
    seen += n;
    if (seen >= std::max<int64_t>(rank, 1)) return t;
  }
  return s.pooled.empty() ? Time::zero() : s.pooled.rbegin()->first;
}

Time mean_iteration(const PolicySummary& s) {
  if (s.iterations == 0) return Time::zero();
  i128 sum = 0;
  for (const auto& [t, n] : s.pooled) sum += static_cast<i128>(t.picoseconds()) * n;
  return Time::ps(static_cast<int64_t>((sum + s.iterations / 2) / s.iterations));
}

struct Quantile {
  const char* name;
  double q;
};
constexpr Quantile kQuantiles[] = {{"p50", 0.5}, {"p99", 0.99}, {"p999", 0.999}, {"p9999", 0.9999}};

// The policy with the highest mean goodput; none on a tie for the highest
// or with one policy (nothing to compare).
std::optional<size_t> best_policy(const std::vector<PolicySummary>& summaries) {
  if (summaries.size() < 2) return std::nullopt;
  size_t best = 0;
  bool tie = false;
  for (size_t i = 1; i < summaries.size(); ++i) {
    if (summaries[i].goodput_mean > summaries[best].goodput_mean) {
      best = i;
      tie = false;
    } else if (summaries[i].goodput_mean == summaries[best].goodput_mean) {
      tie = true;
    }
  }
  if (tie) return std::nullopt;
  return best;
}

std::string state_name(const SimulatedState& s) {
  if (s.lost_switches.empty()) return "healthy";
  std::string out = s.plan == IterationPlan::static_fallback ? "static without switch" : "replanned without switch";
  if (s.lost_switches.size() > 1) out += "es";
  for (size_t i = 0; i < s.lost_switches.size(); ++i) out += (i ? ", " : " ") + std::to_string(s.lost_switches[i]);
  return out;
}

std::string mtbf_text(double seconds) { return fixed(seconds / kSecondsPerHour, 0) + "h"; }

std::vector<PolicySummary> summaries_of(const AvailabilityStudy& study) {
  std::vector<PolicySummary> out;
  for (const PolicyOutcomes& p : study.policies) out.push_back(summarize(p, study.horizon));
  return out;
}

double healthy_per_hour(const AvailabilityStudy& study) { return kSecondsPerHour / study.healthy_iteration.seconds(); }

}  // namespace

std::string AvailabilityReport::table() const {
  const AvailabilityStudy& s = study;
  const std::vector<PolicySummary> summaries = summaries_of(s);
  std::ostringstream out;
  int outages = 0;
  for (int n : s.outages_per_seed) outages += n;
  out << "availability: " << config;
  for (const std::string& set : sets) out << " --set " << set;
  out << ", " << s.days << " days x " << s.outages_per_seed.size() << " seeds (from "
      << s.first_seed << "), " << to_string(s.fidelity) << " fidelity, " << s.gpus << " GPUs x " << s.ports
      << " ports\n";
  out << "failures: port MTBF " << mtbf_text(s.rates.port_mtbf_s) << ", repair " << format_time(*s.rates.port_repair)
      << "; flaps "
      << (s.rates.flap_mtbf_s ? "MTBF " + mtbf_text(*s.rates.flap_mtbf_s) + ", " + format_time(*s.rates.flap_duration)
                              : std::string("none"))
      << "; detection " << format_time(s.detection) << ", reconfiguration " << format_time(s.reconfiguration) << "\n";
  out << "outages drawn: " << outages << " over every seed\n";
  out << "iteration (" << (s.graph ? "task graph" : "one collective") << "): healthy "
      << format_time(s.healthy_iteration) << ", " << fixed(healthy_per_hour(s), 1) << " per hour; " << s.states.size()
      << " fabric state(s) simulated once each\n";
  double states_wall = 0;
  for (const SimulatedState& st : s.states) {
    out << "  " << state_name(st) << ": "
        << (st.iteration ? format_time(*st.iteration) : std::string("no plan (no switch survives): waits")) << "\n";
    states_wall += st.wall_seconds;
  }
  out << "  wall time simulating them: " << fixed(states_wall, 2) << " s\n";
  for (size_t i = 0; i < s.policies.size(); ++i) {
    const PolicySummary& p = summaries[i];
    out << "policy " << to_string(s.policies[i].policy) << ": goodput " << fixed(p.goodput_mean, 2) << " iterations/h ("
        << fixed(100.0 * p.goodput_mean / healthy_per_hour(s), 4) << " % of healthy; median "
        << fixed(p.goodput_median, 2) << ", min " << fixed(p.goodput_min, 2) << ")\n";
    out << "  iteration: p50 " << format_time(percentile(p, 0.5)) << ", p99.99 " << format_time(percentile(p, 0.9999))
        << ", max " << format_time(percentile(p, 1.0)) << "; " << p.port_failures << " port failures, " << p.flaps
        << " flaps, " << p.replans << " replans, " << p.restarts << " restarts\n";
    out << "  lost per seed: " << format_time(Time::ps(p.lost_total_mean_ps));
    for (size_t c = 0; c < causes().size(); ++c)
      if (p.lost_mean_ps[c] > 0) out << ", " << causes()[c].first << " " << format_time(Time::ps(p.lost_mean_ps[c]));
    out << "\n";
  }
  const std::optional<size_t> best = best_policy(summaries);
  if (s.policies.size() > 1)
    out << "highest goodput: "
        << (best ? std::string(to_string(s.policies[*best].policy)) : std::string("none (a tie)")) << "\n";
  out << "wall time: " << fixed(s.wall_seconds, 1) << " s\n";
  return out.str();
}

std::string AvailabilityReport::json() const {
  const AvailabilityStudy& s = study;
  const std::vector<PolicySummary> summaries = summaries_of(s);
  JsonWriter w;
  w.begin_object();
  w.field("config", config);
  w.key("sets").begin_array(JsonWriter::Layout::inline_);
  for (const std::string& set : sets) w.string(set);
  w.end_array();
  w.field("days", s.days);
  w.field("seeds", static_cast<int>(s.outages_per_seed.size()));
  w.field("first_seed", s.first_seed);
  w.field("fidelity", to_string(s.fidelity));
  w.field("gpus", s.gpus);
  w.field("ports", s.ports);
  w.key("rates").begin_object(JsonWriter::Layout::inline_);
  w.key("port_mtbf_s").number(fixed(s.rates.port_mtbf_s, 3));
  w.field("port_repair_ps", s.rates.port_repair->picoseconds());
  if (s.rates.flap_mtbf_s) {
    w.key("flap_mtbf_s").number(fixed(*s.rates.flap_mtbf_s, 3));
    w.field("flap_duration_ps", s.rates.flap_duration->picoseconds());
  } else {
    w.key("flap_mtbf_s").null();
    w.key("flap_duration_ps").null();
  }
  w.field("detection_ps", s.detection.picoseconds());
  w.field("reconfiguration_ps", s.reconfiguration.picoseconds());
  w.end_object();
  w.field("healthy_iteration_ps", s.healthy_iteration.picoseconds());
  w.key("healthy_per_hour").number(fixed(healthy_per_hour(s), 6));
  w.key("outages_per_seed").begin_array(JsonWriter::Layout::inline_);
  for (int n : s.outages_per_seed) w.integer(n);
  w.end_array();
  w.key("states").begin_array();
  for (const SimulatedState& st : s.states) {
    w.begin_object(JsonWriter::Layout::inline_);
    w.field("plan", to_string(st.plan));
    w.key("lost_switches").begin_array(JsonWriter::Layout::inline_);
    for (int sw : st.lost_switches) w.integer(sw);
    w.end_array();
    if (st.iteration)
      w.field("iteration_ps", st.iteration->picoseconds());
    else
      w.key("iteration_ps").null();
    w.end_object();
  }
  w.end_array();
  w.key("policies").begin_array();
  for (size_t i = 0; i < s.policies.size(); ++i) {
    const PolicySummary& p = summaries[i];
    w.begin_object();
    w.field("policy", to_string(s.policies[i].policy));
    w.key("goodput_per_hour").number(fixed(p.goodput_mean, 6));
    w.key("goodput_median").number(fixed(p.goodput_median, 6));
    w.key("goodput_min").number(fixed(p.goodput_min, 6));
    w.key("goodput_pct").number(fixed(100.0 * p.goodput_mean / healthy_per_hour(s), 6));
    w.field("iterations", p.iterations);
    w.key("iteration_ps").begin_object(JsonWriter::Layout::inline_);
    w.field("mean", mean_iteration(p).picoseconds());
    for (const Quantile& q : kQuantiles) w.field(q.name, percentile(p, q.q).picoseconds());
    w.field("max", percentile(p, 1.0).picoseconds());
    w.end_object();
    w.key("lost_ps").begin_object(JsonWriter::Layout::inline_);
    w.field("total", p.lost_total_mean_ps);
    for (size_t c = 0; c < causes().size(); ++c) w.field(causes()[c].first, p.lost_mean_ps[c]);
    w.end_object();
    w.field("port_failures", p.port_failures);
    w.field("flaps", p.flaps);
    w.field("replans", p.replans);
    w.field("restarts", p.restarts);
    // [iteration_ps, fraction of iterations at most that long], pooled over the seeds.
    w.key("cdf").begin_array(JsonWriter::Layout::inline_);
    int64_t seen = 0;
    for (const auto& [t, n] : p.pooled) {
      seen += n;
      w.begin_array(JsonWriter::Layout::inline_);
      w.integer(t.picoseconds());
      w.number(fixed(static_cast<double>(seen) / static_cast<double>(p.iterations), 12));
      w.end_array();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  const std::optional<size_t> best = best_policy(summaries);
  if (best)
    w.field("highest_goodput", to_string(s.policies[*best].policy));
  else
    w.key("highest_goodput").null();
  w.end_object();
  return w.text();
}

std::string AvailabilityReport::csv() const {
  const AvailabilityStudy& s = study;
  std::vector<std::string> header = {
      "policy",        "seed",  "goodput_per_hour", "useful_iterations", "completed_iterations",
      "port_failures", "flaps", "replans",          "restarts"};
  for (const auto& [name, cause] : causes()) header.push_back(std::string("lost_") + name + "_ps");
  std::string out = csv_line(header);
  for (const PolicyOutcomes& p : s.policies) {
    for (size_t i = 0; i < p.seeds.size(); ++i) {
      const TimelineOutcome& o = p.seeds[i];
      std::vector<std::string> row = {to_string(p.policy),
                                      std::to_string(s.first_seed + i),
                                      fixed(static_cast<double>(o.useful_iterations) / hours(s.horizon), 6),
                                      std::to_string(o.useful_iterations),
                                      std::to_string(o.completed_iterations),
                                      std::to_string(o.port_failures),
                                      std::to_string(o.flaps),
                                      std::to_string(o.replans),
                                      std::to_string(o.restarts)};
      for (const auto& [name, cause] : causes()) row.push_back(std::to_string((o.lost.*cause).picoseconds()));
      out += csv_line(row);
    }
  }
  return out;
}

std::string render_availability_report(const AvailabilityReport& report, const std::string& format) {
  if (format == "table") return report.table();
  if (format == "json") return report.json();
  if (format == "csv") return report.csv();
  throw Error("--format: unknown format '" + format + "' (valid: table, json, csv)");
}

}  // namespace photonsim
