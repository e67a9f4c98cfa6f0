// Port failures and flaps drawn as thinned Poisson processes (port_outage_draw.h).
#include "sim/availability/port_outage_draw.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

#include "core/error.h"

namespace photonsim {
namespace {

// splitmix64: one seed and a stream number give unrelated generator seeds.
uint64_t mixed_seed(uint64_t seed, uint64_t stream) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The arrivals of a Poisson process over every port at once (total rate
// ports / mtbf), each on a port drawn uniformly: the superposition of one
// process per port.
class PortArrivals {
 public:
  PortArrivals(double mtbf_s, int port_count, uint64_t seed) : mean_gap_s_(mtbf_s / port_count), count_(port_count) {
    rng_.seed(seed);
  }

  // The next arrival after `after`, or none at or past `horizon`.
  std::optional<std::pair<Time, int>> next(Time after, Time horizon) {
    const double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;  // [0, 1)
    const double gap_ps = -mean_gap_s_ * std::log1p(-u) * 1e12;
    const double limit = static_cast<double>((horizon - after).picoseconds());
    if (!(gap_ps < limit)) return std::nullopt;
    const Time at = after + Time::ps(static_cast<int64_t>(std::llround(gap_ps)));
    if (at >= horizon) return std::nullopt;
    const int port = static_cast<int>(rng_() % static_cast<uint64_t>(count_));
    return std::make_pair(at, port);
  }

 private:
  double mean_gap_s_;
  int count_;
  std::mt19937_64 rng_;
};

}  // namespace

std::vector<PortOutage> draw_port_outages(const RandomFailures& rates, int gpus, int ports, Time horizon,
                                          uint64_t seed) {
  if (!rates.port_repair) throw Error("draw_port_outages: fabric.random_failures.port_repair is required");
  if (rates.flap_mtbf_s && !rates.flap_duration)
    throw Error("draw_port_outages: fabric.random_failures.flap_duration is required with flap_mtbf");
  const int count = gpus * ports;
  PortArrivals failures(rates.port_mtbf_s, count, mixed_seed(seed, 0));
  std::optional<PortArrivals> flaps;
  if (rates.flap_mtbf_s) flaps.emplace(*rates.flap_mtbf_s, count, mixed_seed(seed, 1));

  std::vector<Time> down_until(static_cast<size_t>(count), Time::zero());
  std::vector<PortOutage> out;
  std::optional<std::pair<Time, int>> failure = failures.next(Time::zero(), horizon);
  std::optional<std::pair<Time, int>> flap = flaps ? flaps->next(Time::zero(), horizon) : std::nullopt;
  while (failure || flap) {
    const bool is_flap = !failure || (flap && flap->first < failure->first);
    const auto [at, port] = is_flap ? *flap : *failure;
    if (is_flap)
      flap = flaps->next(at, horizon);
    else
      failure = failures.next(at, horizon);
    // A port that is down has nothing left to break: the arrival is thinned.
    if (at < down_until[static_cast<size_t>(port)]) continue;
    const Time length = is_flap ? *rates.flap_duration : *rates.port_repair;
    const Time end = length > Time::max() - at ? Time::max() : at + length;
    down_until[static_cast<size_t>(port)] = end;
    out.push_back({at, end, port / ports, port % ports, is_flap});
  }
  return out;
}

}  // namespace photonsim
