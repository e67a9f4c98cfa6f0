#include "sim/reports/failure_report.h"

#include <charconv>

namespace photonsim {

std::string slowdown_text(double slowdown) {
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, slowdown);
  return error == std::errc() ? std::string(text, end) : std::string("0");
}

void write_failures_json(JsonWriter& out, const FailureSpec& spec, const std::vector<FailureCost>& costs) {
  out.key("failures").begin_array();
  for (const FailureCost& c : costs) {
    const Failure& f = spec.entries.at(c.entry);
    out.begin_object(JsonWriter::Layout::inline_)
        .field("kind", to_string(c.kind))
        .field("entry", static_cast<uint64_t>(c.entry));
    if (c.kind == FailureKind::reconfiguration) {
      out.field("step", f.step)
          .field("extra_delay_ps", f.extra_delay.picoseconds())
          .field("commands", c.commands)
          .field("extra_dark_ps", c.extra_dark.picoseconds());
    } else if (c.kind == FailureKind::straggler) {
      out.field("gpu", f.gpu);
      out.key("slowdown").number(slowdown_text(f.slowdown));
      out.field("nodes", c.nodes).field("slowed_compute_ps", c.slowed_compute.picoseconds());
    }
    out.end_object();
  }
  out.end_array();
}

std::string failures_table(const FailureSpec& spec, const std::vector<FailureCost>& costs) {
  std::string out;
  for (const FailureCost& c : costs) {
    const Failure& f = spec.entries.at(c.entry);
    std::string line = "failure " + std::to_string(c.entry);
    line.resize(std::max<size_t>(line.size() + 1, 19), ' ');
    if (c.kind == FailureKind::reconfiguration) {
      line += "reconfiguration before step " + std::to_string(f.step) + " " + format_time(f.extra_delay) +
              " longer: " + std::to_string(c.commands) + (c.commands == 1 ? " command, " : " commands, ") +
              format_time(c.extra_dark) + " more dark";
    } else if (c.kind == FailureKind::straggler) {
      line += "straggler GPU " + std::to_string(f.gpu) + " x" + slowdown_text(f.slowdown) + ": " +
              std::to_string(c.nodes) + (c.nodes == 1 ? " compute node, " : " compute nodes, ") +
              format_time(c.slowed_compute) + " added";
    } else {
      line += to_string(c.kind);
    }
    out += line + "\n";
  }
  return out;
}

Time total_extra_dark(const std::vector<FailureCost>& costs) {
  Time t;
  for (const FailureCost& c : costs) t += c.extra_dark;
  return t;
}

Time total_slowed_compute(const std::vector<FailureCost>& costs) {
  Time t;
  for (const FailureCost& c : costs) t += c.slowed_compute;
  return t;
}

}  // namespace photonsim
