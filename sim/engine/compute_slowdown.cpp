#include "sim/engine/compute_slowdown.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace photonsim {

ComputeSlowdown::ComputeSlowdown(const FailureSpec& failures, int gpus)
    : entry_of_gpu_(static_cast<size_t>(gpus > 0 ? gpus : 0), -1),
      slowdown_of_gpu_(static_cast<size_t>(gpus > 0 ? gpus : 0), 1.0) {
  for (size_t i = 0; i < failures.entries.size(); ++i) {
    const Failure& f = failures.entries[i];
    if (f.kind != FailureKind::straggler) continue;
    if (f.gpu < 0 || static_cast<size_t>(f.gpu) >= entry_of_gpu_.size())
      throw std::logic_error("ComputeSlowdown: fabric.failures[" + std::to_string(i) + "]'s GPU is not on the fabric");
    entries_.push_back(i);
    entry_of_gpu_[static_cast<size_t>(f.gpu)] = static_cast<int>(i);
    slowdown_of_gpu_[static_cast<size_t>(f.gpu)] = f.slowdown;
  }
}

std::optional<ComputeSlowdown::Slowed> ComputeSlowdown::apply(const TaskNode& node) const {
  if (node.kind != TaskKind::compute || entries_.empty()) return Slowed{node.duration, std::nullopt};
  int entry = -1;
  double slowdown = 1.0;
  for (int g : node.gpus) {
    if (g < 0 || static_cast<size_t>(g) >= entry_of_gpu_.size()) continue;
    const int e = entry_of_gpu_[static_cast<size_t>(g)];
    if (e < 0) continue;
    const double s = slowdown_of_gpu_[static_cast<size_t>(g)];
    if (entry < 0 || s > slowdown || (s == slowdown && e < entry)) {
      entry = e;
      slowdown = s;
    }
  }
  if (entry < 0) return Slowed{node.duration, std::nullopt};
  const std::optional<Time> duration = scaled(node.duration, slowdown);
  if (!duration) return std::nullopt;
  return Slowed{*duration, static_cast<size_t>(entry)};
}

std::optional<Time> ComputeSlowdown::scaled(Time duration, double slowdown) {
  __extension__ typedef unsigned __int128 u128;
  if (duration.picoseconds() < 0 || !(slowdown >= 1.0) || !std::isfinite(slowdown))
    throw std::logic_error("ComputeSlowdown::scaled: a duration >= 0 and a finite slowdown >= 1");
  // slowdown = mantissa x 2^exponent exactly, mantissa < 2^53.
  int exponent = 0;
  const double fraction = std::frexp(slowdown, &exponent);  // [0.5, 1) x 2^exponent
  const auto mantissa = static_cast<uint64_t>(std::ldexp(fraction, 53));
  exponent -= 53;
  const u128 product = static_cast<u128>(static_cast<uint64_t>(duration.picoseconds())) * mantissa;  // < 2^116
  u128 rounded = 0;
  if (exponent >= 0) {
    if (exponent >= 64 || (product >> (127 - exponent)) != 0) return std::nullopt;
    rounded = product << exponent;
  } else {
    const int shift = -exponent;  // 1 .. 53: slowdown >= 1
    rounded = product >> shift;
    const u128 remainder = product - (rounded << shift);
    if (remainder >= (u128{1} << (shift - 1))) ++rounded;  // half or more: away from zero
  }
  if (rounded > static_cast<u128>(INT64_MAX)) return std::nullopt;
  return Time::ps(static_cast<int64_t>(rounded));
}

}  // namespace photonsim
