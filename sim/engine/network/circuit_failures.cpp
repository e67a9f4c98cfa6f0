#include "sim/engine/network/circuit_failures.h"

#include <algorithm>

namespace photonsim {

bool CircuitFailures::takes_circuits_down(const FailureSpec& failures) {
  for (const Failure& f : failures.entries) {
    if (photonsim::takes_circuits_down(f.kind)) return true;
  }
  return false;
}

bool CircuitFailures::degrades_links(const FailureSpec& failures) {
  for (const Failure& f : failures.entries) {
    if (f.kind == FailureKind::link) return true;
  }
  return false;
}

CircuitFailures::CircuitFailures(const FabricSpec& fabric) : gpus_(fabric.gpus), ports_(fabric.ports) {
  if (degrades_links(fabric.failures)) {
    links_.resize(static_cast<size_t>(gpus_) * static_cast<size_t>(ports_));
    for (const Failure& f : fabric.failures.entries) {
      if (f.kind != FailureKind::link) continue;
      links_[static_cast<size_t>(f.gpu) * static_cast<size_t>(ports_) + static_cast<size_t>(f.port)].push_back(
          {{f.at, f.end()}, f.bandwidth});
    }
  }
  if (!takes_circuits_down(fabric.failures)) return;
  any_ = true;
  by_port_.resize(static_cast<size_t>(gpus_) * static_cast<size_t>(ports_));
  by_switch_.resize(static_cast<size_t>(ports_));
  const std::vector<Failure>& entries = fabric.failures.entries;
  for (size_t i = 0; i < entries.size(); ++i) {
    const Failure& f = entries[i];
    const EntryInterval interval{{f.at, f.end()}, static_cast<uint32_t>(i)};
    if (f.kind == FailureKind::port || f.kind == FailureKind::flap) {
      by_port_[static_cast<size_t>(f.gpu) * static_cast<size_t>(ports_) + static_cast<size_t>(f.port)].push_back(
          interval);
    } else if (f.kind == FailureKind::optical_switch) {
      by_switch_[static_cast<size_t>(f.optical_switch)].push_back(interval);
    }
  }
}

std::vector<EntryInterval> CircuitFailures::intervals_on(Node from, Node to, uint32_t port) const {
  std::vector<EntryInterval> raw;
  const auto at = [&](Node gpu) { return static_cast<size_t>(gpu) * static_cast<size_t>(ports_) + port; };
  raw.insert(raw.end(), by_port_[at(from)].begin(), by_port_[at(from)].end());
  if (to != from) raw.insert(raw.end(), by_port_[at(to)].begin(), by_port_[at(to)].end());
  raw.insert(raw.end(), by_switch_[port].begin(), by_switch_[port].end());
  return raw;
}

CircuitDownTime CircuitFailures::circuit(Node from, Node to, uint32_t port) const {
  if (!any_) return {};
  return CircuitDownTime(intervals_on(from, to, port));
}

std::vector<DegradedSpan> CircuitFailures::degraded(Node from, Node to, uint32_t port, Bandwidth rate) const {
  if (links_.empty()) return {};
  const auto at = [&](Node gpu) { return static_cast<size_t>(gpu) * static_cast<size_t>(ports_) + port; };
  std::vector<LinkEntry> entries = links_[at(from)];
  if (to != from) entries.insert(entries.end(), links_[at(to)].begin(), links_[at(to)].end());
  // Between consecutive edges of the entries' spans the rate is constant: the
  // lowest of the entries covering it (one end's entries never overlap).
  std::vector<Time> edges;
  for (const LinkEntry& e : entries) {
    edges.push_back(e.span.from);
    edges.push_back(e.span.until);
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  std::vector<DegradedSpan> spans;
  for (size_t i = 0; i + 1 < edges.size(); ++i) {
    Bandwidth lowest = rate;
    for (const LinkEntry& e : entries) {
      if (e.span.from <= edges[i] && edges[i] < e.span.until) lowest = std::min(lowest, e.rate);
    }
    if (lowest >= rate) continue;
    if (!spans.empty() && spans.back().span.until == edges[i] && spans.back().rate == lowest) {
      spans.back().span.until = edges[i + 1];
    } else {
      spans.push_back({{edges[i], edges[i + 1]}, lowest});
    }
  }
  return spans;
}

std::optional<uint32_t> CircuitFailures::gpu_down_forever(Node gpu, Time now) const {
  if (!any_) return std::nullopt;
  std::optional<uint32_t> charged;
  for (int p = 0; p < ports_; ++p) {
    const CircuitDownTime port_down(intervals_on(gpu, gpu, static_cast<uint32_t>(p)));
    const DownInterval* down = port_down.down_at(now);
    if (down == nullptr || down->until != Time::max()) return std::nullopt;
    const std::optional<uint32_t> entry = port_down.entry_forever();
    if (!charged || *entry < *charged) charged = entry;
  }
  return charged;
}

}  // namespace photonsim
