#include "sim/reports/run_report.h"

#include "sim/reports/csv_text.h"
#include "sim/reports/failure_report.h"
#include "sim/reports/json_text.h"
#include "sim/reports/json_writer.h"
#include "sim/reports/report_numbers.h"

#include <cstdio>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "core/version.h"
#include "sim/engine/network/circuit_failures.h"

namespace photonsim {

namespace {

struct Column {
  std::string name;
  std::string value;  // a number as printed, or the string itself (quoted on output)
  bool is_string;
};

Time predicted_total(const RunReport& r) { return r.schedule.prediction().total(); }

// NCCL's bandwidths (nccl-tests' PERFORMANCE.md), in GB/s: algbw is the
// bytes each GPU contributes (the message; n messages for all-to-all) over
// the completion time, busbw algbw times the collective's bus factor.
std::pair<std::string, std::string> nccl_bandwidths(const RunReport& r) {
  const Collective collective = r.schedule.collective();
  const double n = static_cast<double>(r.schedule.gpus());
  const double message = static_cast<double>(r.schedule.message().count());
  const double seconds = static_cast<double>(r.result.completion.picoseconds()) * 1e-12;
  if (seconds <= 0 || n <= 0) return {fixed(0, 6), fixed(0, 6)};
  const double per_rank = collective == Collective::alltoall ? message * n : message;
  const double algbw = per_rank / seconds / 1e9;
  const double bus = collective == Collective::allreduce   ? 2.0 * (n - 1) / n
                     : collective == Collective::broadcast ? 1.0
                                                           : (n - 1) / n;
  return {fixed(algbw, 6), fixed(algbw * bus, 6)};
}

std::vector<Column> scalar_columns(const RunReport& r) {
  const ExperimentSpec& c = r.spec;
  const Time predicted = predicted_total(r);
  std::vector<Column> columns = {
      {"collective", to_string(r.schedule.collective()), true},
      {"algorithm", r.schedule.algorithm(), true},
      {"planner", r.schedule.planner(), true},
      {"model", r.schedule.prediction().model, true},
      {"gpus", std::to_string(r.schedule.gpus()), false},
      {"ports", std::to_string(c.fabric.ports), false},
      {"circuits", to_string(c.fabric.circuits), true},
      {"router", to_string(c.fabric.router), true},
      {"bandwidth_bps", std::to_string(c.fabric.bandwidth.bps()), false},
      {"latency_ps", std::to_string(c.fabric.latency.picoseconds()), false},
      {"message_bytes", std::to_string(r.schedule.message().count()), false},
      {"chunk_bytes", std::to_string(c.workload.chunk.count()), false},
      {"distribution", to_string(c.workload.distribution), true},
      {"packet_bytes", std::to_string(c.fabric.packet.count()), false},
      {"reconfig_delay_ps", std::to_string(c.fabric.reconfig_delay.picoseconds()), false},
      {"step_overhead_ps", std::to_string(c.fabric.step_overhead.picoseconds()), false},
      {"seed", std::to_string(c.seed), false},
      {"measured_ps", std::to_string(r.result.completion.picoseconds()), false},
      {"predicted_ps", std::to_string(predicted.picoseconds()), false},
      {"error_pct", fixed(error_pct(r.result.completion, predicted), 4), false},
      {"reconfigurations", std::to_string(r.result.reconfigurations), false},
      {"reconfig_ps", std::to_string(r.result.reconfiguration_time.picoseconds()), false},
      {"steps", std::to_string(r.result.steps.size()), false},
      {"events", std::to_string(r.result.events), false},
      {"trains", std::to_string(r.result.network.trains), false},
      {"reused", std::to_string(r.result.network.reused), false},
      {"packets", std::to_string(r.result.network.packets), false},
      {"packet_hops", std::to_string(r.result.network.packet_hops), false},
      {"bytes_delivered", std::to_string(r.result.network.bytes_delivered), false},
      {"peak_packets_in_flight", std::to_string(r.result.network.peak_packets_in_flight), false},
      {"fidelity", to_string(r.fidelity), true},
      {"egress_order", to_string(c.fabric.egress_order), true},
      {"version", PHOTONSIM_VERSION, true},
      {"wall_s", fixed(r.wall_seconds, 6), false},
      {"synthesis_s", fixed(r.synthesis_seconds, 6), false},
      {"simulation_s", fixed(r.simulation_seconds, 6), false},
  };
  if (reports_execution(c)) {
    // Before the timings, which stay last.
    const std::vector<Column> execution = {
        {"sync", to_string(c.fabric.sync), true},
        {"reconfiguration", to_string(c.fabric.reconfiguration), true},
        {"barrier_wait_ps", std::to_string(r.result.barrier_wait.picoseconds()), false},
    };
    columns.insert(columns.end() - 4, execution.begin(), execution.end());
  }
  if (c.bandwidth_scope_column) {
    // Only when named, so the default run's columns stay as they were.
    columns.insert(columns.end() - 4, Column{"bandwidth_scope", to_string(c.fabric.bandwidth_scope), true});
  }
  const auto [algbw, busbw] = nccl_bandwidths(r);
  columns.insert(columns.end() - 4, {Column{"algbw_GBps", algbw, false}, Column{"busbw_GBps", busbw, false}});
  if (c.fabric.failures.any()) {
    // Only with failures configured: a healthy fabric's columns stay as they were.
    columns.insert(columns.end() - 4,
                   {Column{"failures", std::to_string(r.result.failures.size()), false},
                    Column{"extra_dark_ps", std::to_string(total_extra_dark(r.result.failures).picoseconds()), false}});
  }
  if (CircuitFailures::takes_circuits_down(c.fabric.failures)) {
    const NetworkStats& n = r.result.network;
    columns.insert(columns.end() - 4, {Column{"lost_packets", std::to_string(n.packets_lost), false},
                                       Column{"resent_bytes", std::to_string(n.bytes_resent), false},
                                       Column{"waited_ps", std::to_string(n.waited.picoseconds()), false}});
  }
  return columns;
}

}  // namespace

std::string RunReport::json() const {
  JsonWriter out;
  out.begin_object();
  for (const Column& col : scalar_columns(*this)) {
    out.key(col.name);
    col.is_string ? out.string(col.value) : out.number(col.value);
  }
  if (stored_prediction) {
    // replay: what the schedule's maker predicted for the fabric it was made for.
    out.field("stored_model", stored_prediction->model)
        .field("stored_predicted_ps", stored_prediction->total().picoseconds());
  }
  out.key("per_step").begin_array();
  const auto& predicted = schedule.prediction().steps;
  for (size_t s = 0; s < result.steps.size(); ++s) {
    const StepResult& m = result.steps[s];
    const StepPrediction p = s < predicted.size() ? predicted[s] : StepPrediction{};
    const Step& step = schedule.steps()[s];
    out.begin_object(JsonWriter::Layout::inline_)
        .field("step", static_cast<uint64_t>(s))
        .field("topology", schedule.topologies()[static_cast<size_t>(step.topology)].name())
        .field("reconfigured", schedule.reconfigures_before(s))
        .field("transfers", m.transfers)
        .field("bytes", m.bytes)
        .field("measured_ps", m.measured().picoseconds())
        .field("predicted_ps", p.total().picoseconds());
    if (reports_execution(spec)) {
      // Steps may overlap under dataflow: when each began and ended.
      out.field("begin_ps", m.begin.picoseconds())
          .field("end_ps", m.end.picoseconds())
          .field("barrier_wait_ps", m.barrier_wait.picoseconds());
    }
    out.key("error_pct").number(fixed(error_pct(m.measured(), p.total()), 4));
    out.key("measured")
        .begin_object(JsonWriter::Layout::inline_)
        .field("reconfiguration_ps", m.reconfiguration.picoseconds())
        .field("startup_ps", m.startup.picoseconds())
        .field("transfer_ps", (m.measured() - m.reconfiguration - m.startup).picoseconds())
        .end_object();
    out.key("predicted")
        .begin_object(JsonWriter::Layout::inline_)
        .field("reconfiguration_ps", p.reconfiguration.picoseconds())
        .field("startup_ps", p.startup.picoseconds())
        .field("propagation_ps", p.propagation.picoseconds())
        .field("transmission_ps", p.transmission.picoseconds())
        .end_object()
        .end_object();
  }
  out.end_array();
  if (spec.fabric.failures.any()) write_failures_json(out, spec.fabric.failures, result.failures);
  if (CircuitFailures::takes_circuits_down(spec.fabric.failures)) write_loss_json(out, result.network);
  out.end_object();
  return out.text();
}

std::string RunReport::csv() const {
  std::vector<std::string> header, row;
  for (const Column& col : scalar_columns(*this)) {
    header.push_back(col.name);
    row.push_back(col.value);
  }
  return csv_line(header) + csv_line(row);
}

std::string RunReport::table() const {
  std::ostringstream out;
  const Time predicted = predicted_total(*this);
  out << "photonsim " << PHOTONSIM_VERSION << "  " << to_string(schedule.collective()) << " / "
      << printable(schedule.algorithm()) << " / planner " << printable(schedule.planner()) << "  on " << schedule.gpus()
      << " GPUs (" << spec.fabric.ports << " " << to_string(spec.fabric.circuits) << " ports, "
      << format_bandwidth(spec.fabric.bandwidth)
      << (spec.fabric.bandwidth_scope == BandwidthScope::gpu ? " per GPU, split over its ports" : "") << ", "
      << format_time(spec.fabric.latency) << " latency, " << to_string(spec.fabric.router)
      << (spec.fabric.egress_order == FabricSpec{}.egress_order
              ? std::string()
              : std::string(", egress ") + to_string(spec.fabric.egress_order))
      << ")\n";
  out << "message " << format_bytes(schedule.message()) << ", alpha_r " << format_time(spec.fabric.reconfig_delay)
      << ", model " << printable(schedule.prediction().model)
      << (fidelity == Fidelity::packet ? std::string() : std::string(", fidelity ") + to_string(fidelity)) << "\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%5s  %-20s %9s %13s %13s %9s\n", "step", "topology", "transfers", "measured",
                "predicted", "error");
  out << line;
  const auto& predicted_steps = schedule.prediction().steps;
  for (size_t s = 0; s < result.steps.size(); ++s) {
    const StepResult& m = result.steps[s];
    const Time p = s < predicted_steps.size() ? predicted_steps[s].total() : Time::zero();
    std::string topo = printable(schedule.topologies()[static_cast<size_t>(schedule.steps()[s].topology)].name());
    if (schedule.reconfigures_before(s)) topo += " *";
    std::snprintf(line, sizeof line, "%5zu  %-20s %9llu %13s %13s %8s%%\n", s, topo.c_str(),
                  static_cast<unsigned long long>(m.transfers), format_time(m.measured()).c_str(),
                  format_time(p).c_str(), fixed(error_pct(m.measured(), p), 2).c_str());
    out << line;
  }
  out << "\n(* = reconfigured before the step)\n";
  std::snprintf(line, sizeof line, "%-18s %s\n%-18s %s\n%-18s %s%%\n", "measured",
                format_time(result.completion).c_str(), "predicted", format_time(predicted).c_str(), "error",
                fixed(error_pct(result.completion, predicted), 3).c_str());
  out << line;
  if (stored_prediction) {
    out << "stored prediction  " << format_time(stored_prediction->total()) << " (model "
        << (stored_prediction->model.empty() ? "unnamed" : printable(stored_prediction->model))
        << ", for the fabric the schedule was made for; predicted above: this fabric)\n";
  }
  out << "reconfigurations   " << result.reconfigurations << " (" << format_time(result.reconfiguration_time)
      << " dark)\n";
  if (spec.fabric.failures.any()) out << failures_table(spec.fabric.failures, result.failures);
  if (CircuitFailures::takes_circuits_down(spec.fabric.failures)) out << loss_table(result.network);
  if (reports_execution(spec)) {
    out << "execution          sync " << to_string(spec.fabric.sync) << ", reconfiguration "
        << to_string(spec.fabric.reconfiguration) << ", barrier wait " << format_time(result.barrier_wait)
        << (spec.fabric.sync == SyncMode::barrier ? " (time some transfer had its data but waited for a barrier)" : "")
        << "\n";
  }
  out << "events             " << result.events << ", packets " << result.network.packets << ", packet-hops "
      << result.network.packet_hops << ", trains " << result.network.trains << ", reused " << result.network.reused
      << ", wall " << fixed(wall_seconds, 3) << " s (synthesis " << fixed(synthesis_seconds, 3) << " s, simulation "
      << fixed(simulation_seconds, 3) << " s)\n";
  out << "packets in flight  at most " << result.network.peak_packets_in_flight << "\n";
  return out.str();
}

std::string render_report(const RunReport& report, const std::string& format) {
  if (format == "table") return report.table();
  if (format == "json") return report.json();
  if (format == "csv") return report.csv();
  throw Error("--format: unknown format '" + format + "' (valid: table, json, csv)");
}

}  // namespace photonsim
