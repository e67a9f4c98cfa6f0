#include "sim/cli/planning_failures_output.h"

#include <memory>

#include "core/spec/planning_failures.h"
#include "schedules/synthesis/physical_feasibility.h"
#include "sim/reports/json_writer.h"

namespace photonsim::cli {

namespace {

std::string joined(const std::vector<int>& values) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return out;
}

}  // namespace

PlanningFailuresOutput::PlanningFailuresOutput(const FabricSpec& fabric) : fabric_(fabric) {
  const PlanningFailures known = PlanningFailures::of(fabric);
  if (!known.any()) return;
  int ports = fabric.ports;
  for (const PlanningFailures::SwitchExclusion& x : known.switches) {
    const Failure& f = fabric.failures.entries[x.entry];
    std::string took = "switch " + std::to_string(x.optical_switch) + " excluded: " + std::to_string(ports) + " of " +
                       std::to_string(fabric.ports) + " ports -> " + std::to_string(ports - 1);
    if (f.duration) took += " (for the whole plan, though it is back at " + format_time(f.end()) + ")";
    --ports;
    lines_.push_back({x.entry, PlanningFailures::entry_name(fabric, x.entry), took});
  }
  for (const PlanningFailures::SwitchExclusion& x : known.kept) {
    const Failure& f = fabric.failures.entries[x.entry];
    lines_.push_back({x.entry, PlanningFailures::entry_name(fabric, x.entry),
                      "switch " + std::to_string(x.optical_switch) +
                          " kept: every switch is down at 0, so the plan keeps those back later (this one at " +
                          format_time(f.end()) + ") and the run waits for them"});
  }
  const std::shared_ptr<const PhysicalLayer> physical = known.mzis.empty() ? nullptr : physical_layer_of(fabric);
  for (size_t entry : known.mzis) {
    const Failure& f = fabric.failures.entries[entry];
    std::string took = "MZI (" + std::to_string(f.row) + ", " + std::to_string(f.col) + ") of server " +
                       std::to_string(f.server) + " excluded: no circuit is routed through it";
    const std::string role = physical ? physical->mzi_role(f.server, f.row, f.col) : std::string();
    // A transceiver on it is not working, a fiber attached to it is lost both ways.
    if (!role.empty()) took += "; it is " + role + ": no circuit takes it";
    lines_.push_back({entry, PlanningFailures::entry_name(fabric, entry), took});
  }
  if (!known.switches.empty() || !known.kept.empty()) {
    // An empty survivor list never reaches here: planning refused it first.
    summary_ = "every topology planned on " + std::to_string(known.surviving.size()) + " port" +
               (known.surviving.size() == 1 ? "" : "s") + " (switch" + (known.surviving.size() == 1 ? " " : "es ") +
               joined(known.surviving) + ")";
  }
}

std::string PlanningFailuresOutput::table() const {
  if (!any()) return "";
  std::string out = "failures known when planning:\n";
  for (const Line& line : lines_) out += "  " + line.name + ": " + line.took_away + "\n";
  if (!summary_.empty()) out += summary_ + "\n";
  return out + "\n";
}

std::string PlanningFailuresOutput::json(const std::string& plan_json) const {
  if (!any()) return plan_json;
  const PlanningFailures known = PlanningFailures::of(fabric_);
  JsonWriter w;
  w.begin_object()
      .field("configured_ports", fabric_.ports)
      .field("planned_ports", static_cast<int>(known.surviving.size()));
  w.key("surviving_switches").begin_array(JsonWriter::Layout::inline_);
  for (int s : known.surviving) w.integer(s);
  w.end_array().key("entries").begin_array();
  for (const Line& line : lines_) {
    const Failure& f = fabric_.failures.entries[line.entry];
    w.begin_object(JsonWriter::Layout::inline_)
        .field("entry", static_cast<uint64_t>(line.entry))
        .field("kind", to_string(f.kind));
    if (f.kind == FailureKind::optical_switch) {
      w.field("switch", f.optical_switch).field("at_ps", f.at.picoseconds());
      w.key("for_ps");
      f.duration ? w.integer(f.duration->picoseconds()) : w.null();
    } else {
      w.field("server", f.server).field("row", f.row).field("col", f.col);
    }
    w.field("took_away", line.took_away).end_object();
  }
  w.end_array().end_object();
  // The fragment, indented one level, as the plan's last key.
  std::string fragment = w.text();
  while (!fragment.empty() && fragment.back() == '\n') fragment.pop_back();
  std::string indented;
  for (char c : fragment) {
    indented += c;
    if (c == '\n') indented += "  ";
  }
  const size_t close = plan_json.rfind('}');
  if (close == std::string::npos) return plan_json;
  std::string head = plan_json.substr(0, close);
  while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
  return head + ",\n  \"planning_failures\": " + indented + "\n}\n";
}

}  // namespace photonsim::cli
