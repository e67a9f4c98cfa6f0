#include "core/spec/planning_failures.h"

#include <algorithm>

#include "core/error.h"

namespace photonsim {

PlanningFailures PlanningFailures::of(const FabricSpec& fabric) {
  PlanningFailures out;
  out.ports = fabric.ports;
  const auto ports = static_cast<size_t>(std::max(fabric.ports, 0));
  std::vector<char> failed(ports, 0), for_good(ports, 0);
  std::vector<SwitchExclusion> at_zero;
  const std::vector<Failure>& entries = fabric.failures.entries;
  for (size_t i = 0; i < entries.size(); ++i) {
    const Failure& f = entries[i];
    if (f.kind == FailureKind::optical_switch && f.at == Time::zero()) {
      at_zero.push_back({i, f.optical_switch});
      // The loader keeps the switch inside 0 .. ports-1 and one entry per switch.
      if (f.optical_switch < 0 || f.optical_switch >= fabric.ports) continue;
      failed[static_cast<size_t>(f.optical_switch)] = 1;
      if (!f.duration) for_good[static_cast<size_t>(f.optical_switch)] = 1;
    } else if (f.kind == FailureKind::mzi) {
      out.mzis.push_back(i);
    }
  }
  // Every switch down at 0: only those down for good are left out; the others
  // are planned on, and the run waits for them (Lost circuits, L7).
  const bool none_left = std::all_of(failed.begin(), failed.end(), [](char c) { return c != 0; });
  for (const SwitchExclusion& x : at_zero) {
    const bool temporary = entries[x.entry].duration.has_value();
    (none_left && temporary ? out.kept : out.switches).push_back(x);
  }
  const std::vector<char>& excluded = none_left ? for_good : failed;
  for (size_t p = 0; p < ports; ++p) {
    if (excluded[p] == 0) out.surviving.push_back(static_cast<int>(p));
  }
  return out;
}

std::string PlanningFailures::entry_name(const FabricSpec& fabric, size_t entry) {
  const Failure& f = fabric.failures.entries.at(entry);
  std::string out = "fabric.failures[" + std::to_string(entry) + "] (" + to_string(f.kind);
  if (f.kind == FailureKind::optical_switch) {
    out += " " + std::to_string(f.optical_switch) + ", at " + (f.at == Time::zero() ? "0" : format_time(f.at));
  } else if (f.kind == FailureKind::mzi) {
    out += ", server " + std::to_string(f.server) + ", row " + std::to_string(f.row) + ", col " + std::to_string(f.col);
  }
  return out + ")";
}

FabricSpec planning_fabric(const FabricSpec& fabric) {
  const PlanningFailures known = PlanningFailures::of(fabric);
  if (known.switches.empty()) return fabric;
  if (known.surviving.empty()) {
    std::string which;
    for (size_t k = 0; k < known.switches.size(); ++k) {
      which += (k == 0                           ? ""
                : k + 1 == known.switches.size() ? " and "
                                                 : ", ") +
               std::string("fabric.failures[") + std::to_string(known.switches[k].entry) + "]";
    }
    const bool one = known.switches.size() == 1;
    throw Error(PlanningFailures::entry_name(fabric, known.switches.back().entry) +
                ": cannot complete: GPU 0 has no working port: " + which + (one ? " takes" : " take") +
                (fabric.ports == 1
                     ? " the fabric's only optical switch"
                     : " every one of the fabric's " + std::to_string(fabric.ports) + " optical switches") +
                " down for good from the run's start, and port p of every GPU is on switch p, so no circuit can be "
                "placed (leave " +
                (one ? "it" : "one") + " out, or give it a `for` or an `at` after 0)");
  }
  FabricSpec out = fabric;
  const int surviving = static_cast<int>(known.surviving.size());
  out.ports = surviving;
  out.configured_ports = fabric.configured_ports > 0 ? fabric.configured_ports : fabric.ports;
  if (fabric.bandwidth_scope == BandwidthScope::gpu) {
    // fabric.bandwidth / ports per transmitter, for the transmitters left.
    out.bandwidth = Bandwidth::bits_per_second(fabric.bandwidth.bps() / fabric.ports * surviving);
  }
  std::vector<Failure>& entries = out.failures.entries;
  entries.erase(
      std::remove_if(entries.begin(), entries.end(),
                     [](const Failure& f) { return f.kind == FailureKind::optical_switch && f.at == Time::zero(); }),
      entries.end());
  return out;
}

std::string ports_limit(const FabricSpec& fabric) {
  if (fabric.configured_ports <= 0 || fabric.configured_ports == fabric.ports)
    return "fabric.ports is " + std::to_string(fabric.ports);
  return "fabric.ports less the switches failed at 0 is " + std::to_string(fabric.ports) + " (of " +
         std::to_string(fabric.configured_ports) + ")";
}

}  // namespace photonsim
