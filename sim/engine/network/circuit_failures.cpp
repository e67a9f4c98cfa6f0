#include "sim/engine/network/circuit_failures.h"

namespace photonsim {

bool CircuitFailures::takes_circuits_down(const FailureSpec& failures) {
  for (const Failure& f : failures.entries) {
    if (f.kind == FailureKind::port || f.kind == FailureKind::flap || f.kind == FailureKind::optical_switch)
      return true;
  }
  return false;
}

CircuitFailures::CircuitFailures(const FabricSpec& fabric) : gpus_(fabric.gpus), ports_(fabric.ports) {
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

CircuitDownTime CircuitFailures::circuit(Node from, Node to, uint32_t port) const {
  if (!any_) return {};
  std::vector<EntryInterval> raw;
  const auto at = [&](Node gpu) { return static_cast<size_t>(gpu) * static_cast<size_t>(ports_) + port; };
  raw.insert(raw.end(), by_port_[at(from)].begin(), by_port_[at(from)].end());
  if (to != from) raw.insert(raw.end(), by_port_[at(to)].begin(), by_port_[at(to)].end());
  raw.insert(raw.end(), by_switch_[port].begin(), by_switch_[port].end());
  return CircuitDownTime(std::move(raw));
}

std::optional<uint32_t> CircuitFailures::gpu_down_forever(Node gpu, Time now) const {
  if (!any_) return std::nullopt;
  std::optional<uint32_t> charged;
  for (int p = 0; p < ports_; ++p) {
    std::vector<EntryInterval> raw = by_port_[static_cast<size_t>(gpu) * static_cast<size_t>(ports_) + p];
    raw.insert(raw.end(), by_switch_[static_cast<size_t>(p)].begin(), by_switch_[static_cast<size_t>(p)].end());
    const CircuitDownTime port_down(std::move(raw));
    const DownInterval* down = port_down.down_at(now);
    if (down == nullptr || down->until != Time::max()) return std::nullopt;
    const std::optional<uint32_t> entry = port_down.entry_forever();
    if (!charged || *entry < *charged) charged = entry;
  }
  return charged;
}

}  // namespace photonsim
