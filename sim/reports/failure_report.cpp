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
    } else if (c.kind == FailureKind::optical_switch) {
      out.field("switch", f.optical_switch).field("at_ps", f.at.picoseconds());
      if (f.duration) out.field("for_ps", f.duration->picoseconds());
      out.field("lost_packets", c.lost_packets).field("lost_bytes", c.lost_bytes);
    } else if (c.kind == FailureKind::link) {
      out.field("gpu", f.gpu).field("port", f.port).field("bandwidth_bps", f.bandwidth.bps());
      out.field("at_ps", f.at.picoseconds());
      if (f.duration) out.field("for_ps", f.duration->picoseconds());
    } else if (c.kind == FailureKind::mzi) {
      out.field("server", f.server).field("row", f.row).field("col", f.col);
    } else if (c.kind == FailureKind::port || c.kind == FailureKind::flap) {
      out.field("gpu", f.gpu).field("port", f.port).field("at_ps", f.at.picoseconds());
      if (f.duration) out.field("for_ps", f.duration->picoseconds());
      out.field("lost_packets", c.lost_packets).field("lost_bytes", c.lost_bytes);
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
    } else if (c.kind == FailureKind::link) {
      line += "link GPU " + std::to_string(f.gpu) + " port " + std::to_string(f.port) + " at " +
              format_bandwidth(f.bandwidth) + " from " + format_time(f.at) +
              (f.duration ? " for " + format_time(*f.duration) : " until the end");
    } else if (c.kind == FailureKind::mzi) {
      line += "mzi server " + std::to_string(f.server) + " row " + std::to_string(f.row) + " col " +
              std::to_string(f.col) + ": failed from the start, every configuration routed around it";
    } else if (takes_circuits_down(c.kind)) {
      line += c.kind == FailureKind::optical_switch ? "switch " + std::to_string(f.optical_switch)
                                                    : to_string(c.kind) + std::string(" GPU ") + std::to_string(f.gpu) +
                                                          " port " + std::to_string(f.port);
      line += " down at " + format_time(f.at) + (f.duration ? " for " + format_time(*f.duration) : " until the end") +
              ": " + std::to_string(c.lost_packets) + (c.lost_packets == 1 ? " packet" : " packets") + " (" +
              std::to_string(c.lost_bytes) + " B) lost";
    } else {
      line += to_string(c.kind);
    }
    out += line + "\n";
  }
  return out;
}

void write_loss_json(JsonWriter& out, const NetworkStats& n) {
  out.key("loss")
      .begin_object(JsonWriter::Layout::inline_)
      .field("lost_packets", n.packets_lost)
      .field("lost_bytes", n.bytes_lost)
      .field("dropped_packets", n.packets_dropped)
      .field("resent_bytes", n.bytes_resent)
      .field("rewinds", n.rewinds)
      .field("waited_ps", n.waited.picoseconds())
      .end_object();
}

std::string loss_table(const NetworkStats& n) {
  return "loss               " + std::to_string(n.packets_lost) + " packets lost (" + std::to_string(n.bytes_lost) +
         " B), " + std::to_string(n.packets_dropped) + " dropped in all, " + std::to_string(n.bytes_resent) +
         " B resent, " + std::to_string(n.rewinds) + (n.rewinds == 1 ? " rewind, " : " rewinds, ") +
         format_time(n.waited) + " waited for a route\n";
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
