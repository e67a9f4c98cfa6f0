#include "sim/reports/graph_report.h"

#include <cstdint>
#include <cstdio>
#include <sstream>

#include "core/error.h"
#include "core/version.h"
#include "sim/engine/network/circuit_failures.h"
#include "sim/reports/csv_text.h"
#include "sim/reports/failure_report.h"
#include "sim/reports/json_text.h"
#include "sim/reports/json_writer.h"
#include "sim/reports/report_numbers.h"

namespace photonsim {

namespace {

std::string ps(Time t) { return std::to_string(t.picoseconds()); }

Time compute_time(const TaskNode& node, const GraphNodeResult& r) {
  return runs_off_network(node.kind) ? r.end - r.start : Time::zero();
}

Time communication_time(const TaskNode& node, const GraphNodeResult& r) {
  return runs_off_network(node.kind) ? Time::zero() : r.end - r.start;
}

std::string gpus_text(const TaskNode& node) {
  const std::vector<int> gpus = TaskGraph::gpus_of(node);
  if (node.kind == TaskKind::p2p) return std::to_string(node.src) + "->" + std::to_string(node.dst);
  std::string text;
  for (size_t i = 0; i < gpus.size(); ++i) {
    // Runs of consecutive GPUs as a-b.
    size_t j = i;
    while (j + 1 < gpus.size() && gpus[j + 1] == gpus[j] + 1) ++j;
    if (!text.empty()) text += ",";
    text += std::to_string(gpus[i]);
    if (j > i) text += "-" + std::to_string(gpus[j]);
    i = j;
  }
  return text;
}

struct PathTotals {
  Time compute, communication, port_wait, exposed;
};

__extension__ typedef __int128 i128;

// Sums over every node: nodes side by side may add up past int64
// picoseconds though each fits, so these are 128-bit and printed exactly.
struct ReconfigurationTotals {
  i128 exposed = 0, hidden = 0;
  int64_t count = 0;
};

ReconfigurationTotals reconfiguration_totals(const GraphResult& result) {
  ReconfigurationTotals t;
  for (const GraphNodeResult& n : result.nodes) {
    t.exposed += n.exposed_reconfiguration.picoseconds();
    t.hidden += n.hidden_reconfiguration.picoseconds();
    t.count += n.reconfigurations;
  }
  return t;
}

std::string ps(i128 v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return std::to_string(static_cast<int64_t>(v));
  std::string digits;
  for (i128 rest = v < 0 ? -v : v; rest > 0; rest /= 10)
    digits.insert(digits.begin(), static_cast<char>('0' + rest % 10));
  return (v < 0 ? "-" : "") + digits;
}

// As format_time; past int64 picoseconds, seconds with three decimals.
std::string time_text(i128 v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return format_time(Time::ps(static_cast<int64_t>(v)));
  char text[64];
  std::snprintf(text, sizeof text, "%.3Lfs", static_cast<long double>(v) / 1e12L);
  return text;
}

PathTotals path_totals(const GraphReport& r) {
  PathTotals t;
  const auto& nodes = r.spec.graph->nodes();
  for (uint32_t v : r.result.critical_path) {
    const GraphNodeResult& n = r.result.nodes[v];
    t.compute += compute_time(nodes[v], n);
    t.communication += communication_time(nodes[v], n);
    t.port_wait += n.port_wait;
    t.exposed += n.exposed_reconfiguration;
  }
  return t;
}

const std::vector<std::string> kNodeColumns = {"node",
                                               "kind",
                                               "gpus",
                                               "released_ps",
                                               "start_ps",
                                               "end_ps",
                                               "compute_ps",
                                               "communication_ps",
                                               "port_wait_ps",
                                               "exposed_reconfiguration_ps",
                                               "hidden_reconfiguration_ps",
                                               "reconfigurations",
                                               "predicted_ps",
                                               "algorithm",
                                               "planner",
                                               "critical"};

}  // namespace

std::string GraphReport::table() const {
  std::ostringstream out;
  const auto& nodes = spec.graph->nodes();
  const FabricSpec& f = spec.fabric;
  out << "photonsim " << PHOTONSIM_VERSION << "  task graph of " << nodes.size() << " nodes on " << f.gpus << " GPUs ("
      << f.ports << " " << to_string(f.circuits) << " ports, " << format_bandwidth(f.bandwidth) << ", "
      << format_time(f.latency) << " latency)\n";
  out << "algorithm " << printable(spec.synthesis.algorithm) << " / planner " << printable(spec.synthesis.planner)
      << ", alpha_r " << format_time(f.reconfig_delay) << ", sync " << to_string(f.sync) << ", reconfiguration "
      << to_string(f.reconfiguration) << ", preconfigure " << (f.preconfigure ? "true" : "false") << ", priority "
      << to_string(f.priority)
      << (fidelity == Fidelity::packet ? std::string() : std::string(", fidelity ") + to_string(fidelity)) << "\n\n";
  out << "iteration time     " << format_time(result.iteration) << " (predicted " << format_time(predicted_iteration)
      << ", error " << fixed(error_pct(result.iteration, predicted_iteration), 3) << "%)\n";
  const PathTotals t = path_totals(*this);
  out << "critical path      " << result.critical_path.size() << " nodes: compute " << format_time(t.compute)
      << ", communication " << format_time(t.communication) << " (exposed reconfiguration " << format_time(t.exposed)
      << "), waiting for ports " << format_time(t.port_wait) << "\n";
  const ReconfigurationTotals all = reconfiguration_totals(result);
  out << "reconfigurations   " << all.count << " over all nodes: " << time_text(all.exposed) << " exposed, "
      << time_text(all.hidden) << " hidden behind compute\n";
  if (f.failures.any()) out << failures_table(f.failures, result.failures);
  if (CircuitFailures::takes_circuits_down(f.failures)) out << loss_table(result.network);
  out << "\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-28s %-10s %12s %12s %12s %12s %12s\n", "critical path", "kind", "start", "end",
                "port wait", "exposed rc", "predicted");
  out << line;
  for (uint32_t v : result.critical_path) {
    const GraphNodeResult& n = result.nodes[v];
    std::string name = printable(nodes[v].name);
    if (name.size() > 28) name = name.substr(0, 25) + "...";
    std::snprintf(line, sizeof line, "%-28s %-10s %12s %12s %12s %12s %12s\n", name.c_str(), to_string(nodes[v].kind),
                  format_time(n.start).c_str(), format_time(n.end).c_str(), format_time(n.port_wait).c_str(),
                  format_time(n.exposed_reconfiguration).c_str(), format_time(info[v].predicted).c_str());
    out << line;
  }
  out << "\nevents             " << result.events << ", packets " << result.network.packets << ", wall "
      << fixed(wall_seconds, 3) << " s (synthesis " << fixed(synthesis_seconds, 3) << " s)\n";
  return out.str();
}

namespace {

std::vector<std::string> node_row(const GraphReport& r, uint32_t v, const std::vector<char>& critical) {
  const TaskNode& node = r.spec.graph->nodes()[v];
  const GraphNodeResult& n = r.result.nodes[v];
  return {node.name,
          to_string(node.kind),
          gpus_text(node),
          ps(n.released),
          ps(n.start),
          ps(n.end),
          ps(compute_time(node, n)),
          ps(communication_time(node, n)),
          ps(n.port_wait),
          ps(n.exposed_reconfiguration),
          ps(n.hidden_reconfiguration),
          std::to_string(n.reconfigurations),
          ps(r.info[v].predicted),
          r.info[v].algorithm,
          r.info[v].planner,
          critical[v] != 0 ? "1" : "0"};
}

std::vector<char> on_critical_path(const GraphReport& r) {
  std::vector<char> critical(r.result.nodes.size(), 0);
  for (uint32_t v : r.result.critical_path) critical[v] = 1;
  return critical;
}

}  // namespace

std::string GraphReport::json() const {
  JsonWriter out;
  const FabricSpec& f = spec.fabric;
  const PathTotals t = path_totals(*this);
  out.begin_object();
  out.field("config", spec.source).field("seed", spec.seed).field("gpus", f.gpus);
  out.field("algorithm", spec.synthesis.algorithm).field("planner", spec.synthesis.planner);
  out.field("reconfig_delay_ps", f.reconfig_delay.picoseconds()).field("sync", to_string(f.sync));
  out.field("reconfiguration", to_string(f.reconfiguration)).field("preconfigure", f.preconfigure);
  out.field("priority", to_string(f.priority)).field("fidelity", to_string(fidelity));
  out.field("iteration_ps", result.iteration.picoseconds());
  out.field("predicted_iteration_ps", predicted_iteration.picoseconds());
  out.key("error_pct").number(fixed(error_pct(result.iteration, predicted_iteration), 4));
  out.field("critical_compute_ps", t.compute.picoseconds());
  out.field("critical_communication_ps", t.communication.picoseconds());
  out.field("critical_exposed_reconfiguration_ps", t.exposed.picoseconds());
  out.field("critical_port_wait_ps", t.port_wait.picoseconds());
  out.key("critical_path").begin_array(JsonWriter::Layout::inline_);
  for (uint32_t v : result.critical_path) out.string(spec.graph->nodes()[v].name);
  out.end_array();
  out.key("nodes").begin_array();
  const std::vector<char> critical = on_critical_path(*this);
  for (uint32_t v = 0; v < result.nodes.size(); ++v) {
    const std::vector<std::string> row = node_row(*this, v, critical);
    out.begin_object(JsonWriter::Layout::inline_);
    for (size_t c = 0; c < kNodeColumns.size(); ++c) {
      const bool text = c <= 2 || kNodeColumns[c] == "algorithm" || kNodeColumns[c] == "planner";
      if (text) {
        out.field(kNodeColumns[c], row[c]);
      } else {
        out.key(kNodeColumns[c]).number(row[c]);
      }
    }
    out.end_object();
  }
  out.end_array();
  out.field("events", result.events)
      .field("trains", result.network.trains)
      .field("reused", result.network.reused)
      .field("packets", result.network.packets)
      .field("packet_hops", result.network.packet_hops);
  if (f.failures.any()) write_failures_json(out, f.failures, result.failures);
  if (CircuitFailures::takes_circuits_down(f.failures)) write_loss_json(out, result.network);
  out.field("version", PHOTONSIM_VERSION);
  out.key("wall_s").number(fixed(wall_seconds, 6));
  out.end_object();
  return out.text();
}

std::string GraphReport::summary_csv() const {
  const FabricSpec& f = spec.fabric;
  const PathTotals t = path_totals(*this);
  const ReconfigurationTotals all = reconfiguration_totals(result);
  std::vector<std::pair<std::string, std::string>> columns = {
      {"config", spec.source},
      {"seed", std::to_string(spec.seed)},
      {"gpus", std::to_string(f.gpus)},
      {"nodes", std::to_string(result.nodes.size())},
      {"algorithm", spec.synthesis.algorithm},
      {"planner", spec.synthesis.planner},
      {"reconfig_delay_ps", ps(f.reconfig_delay)},
      {"sync", to_string(f.sync)},
      {"reconfiguration", to_string(f.reconfiguration)},
      {"preconfigure", f.preconfigure ? "true" : "false"},
      {"priority", to_string(f.priority)},
      {"fidelity", to_string(fidelity)},
      {"iteration_ps", ps(result.iteration)},
      {"predicted_iteration_ps", ps(predicted_iteration)},
      {"error_pct", fixed(error_pct(result.iteration, predicted_iteration), 4)},
      {"critical_compute_ps", ps(t.compute)},
      {"critical_communication_ps", ps(t.communication)},
      {"critical_exposed_reconfiguration_ps", ps(t.exposed)},
      {"critical_port_wait_ps", ps(t.port_wait)},
      {"reconfigurations", std::to_string(all.count)},
      {"exposed_reconfiguration_ps", ps(all.exposed)},
      {"hidden_reconfiguration_ps", ps(all.hidden)},
      {"events", std::to_string(result.events)},
      {"version", PHOTONSIM_VERSION},
      {"wall_s", fixed(wall_seconds, 6)}};
  if (f.failures.any()) {
    // Only with failures configured: a healthy fabric's columns stay as they were.
    columns.insert(columns.end() - 2, {{"failures", std::to_string(result.failures.size())},
                                       {"slowed_compute_ps", ps(total_slowed_compute(result.failures))}});
  }
  if (CircuitFailures::takes_circuits_down(f.failures)) {
    columns.insert(columns.end() - 2, {{"lost_packets", std::to_string(result.network.packets_lost)},
                                       {"resent_bytes", std::to_string(result.network.bytes_resent)},
                                       {"waited_ps", ps(result.network.waited)}});
  }
  std::vector<std::string> header, row;
  for (const auto& [name, value] : columns) {
    header.push_back(name);
    row.push_back(value);
  }
  return csv_line(header) + csv_line(row);
}

std::string GraphReport::csv() const {
  std::string text = csv_line(kNodeColumns);
  const std::vector<char> critical = on_critical_path(*this);
  for (uint32_t v = 0; v < result.nodes.size(); ++v) text += csv_line(node_row(*this, v, critical));
  return text;
}

std::string render_graph_report(const GraphReport& report, const std::string& format) {
  if (format == "table") return report.table();
  if (format == "json") return report.json();
  if (format == "csv") return report.csv();
  throw Error("--format: unknown format '" + format + "' (valid: table, json, csv)");
}

}  // namespace photonsim
