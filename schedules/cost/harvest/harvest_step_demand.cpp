#include "schedules/cost/harvest/harvest_step_demand.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace photonsim {

HarvestStepDemand::HarvestStepDemand(int gpus, const std::vector<Transfer>& transfers) : gpus_(gpus) {
  std::map<Edge, int64_t> bytes_per_pair;
  std::set<Edge> named;
  for (const Transfer& t : transfers) {
    named.insert({t.src, t.dst});
    if (t.bytes.count() > 0) bytes_per_pair[{t.src, t.dst}] += t.bytes.count();
  }
  pairs_.assign(named.begin(), named.end());
  int64_t divisor = 0;
  for (const auto& [pair, bytes] : bytes_per_pair) {
    divisor = std::gcd(divisor, bytes);
    max_pair_bytes_ = std::max(max_pair_bytes_, bytes);
  }
  unit_bytes_ = divisor > 0 ? divisor : 1;
  for (const auto& [pair, bytes] : bytes_per_pair) {
    entries_.push_back({pair.first, pair.second, static_cast<uint64_t>(bytes / unit_bytes_)});
  }
}

DemandMatrix HarvestStepDemand::matrix() const {
  DemandMatrix d(gpus_);
  for (const Entry& e : entries_) d.set(e.src, e.dst, static_cast<double>(e.units));
  return d;
}

size_t HarvestStepDemand::shape_hash() const {
  // splitmix64's finaliser over (gpus, src, dst, units): the same stream on every platform.
  auto mix = [](uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  uint64_t h = mix(0x9e3779b97f4a7c15ULL ^ static_cast<uint64_t>(static_cast<uint32_t>(gpus_)));
  for (const Entry& e : entries_) {
    h = mix(h ^ ((static_cast<uint64_t>(e.src) << 32) | e.dst));
    h = mix(h ^ e.units);
  }
  return static_cast<size_t>(h);
}

}  // namespace photonsim
