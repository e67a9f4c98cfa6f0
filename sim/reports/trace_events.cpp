#include "sim/reports/trace_events.h"

#include <algorithm>
#include <cstdio>

namespace photonsim {

std::string micros(Time t) {
  const int64_t ps = t.picoseconds();
  const uint64_t magnitude = ps < 0 ? 0 - static_cast<uint64_t>(ps) : static_cast<uint64_t>(ps);
  std::string out = (ps < 0 ? "-" : "") + std::to_string(magnitude / 1'000'000);
  const uint64_t fraction = magnitude % 1'000'000;
  if (fraction == 0) return out;
  char digits[16];
  std::snprintf(digits, sizeof digits, "%06llu", static_cast<unsigned long long>(fraction));
  std::string f(digits);
  f.erase(f.find_last_not_of('0') + 1);
  return out + "." + f;
}

std::vector<size_t> lanes(const std::vector<std::pair<Time, Time>>& spans, size_t& count) {
  std::vector<size_t> order(spans.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return spans[a].first != spans[b].first ? spans[a].first < spans[b].first : spans[a].second > spans[b].second;
  });
  std::vector<size_t> lane(spans.size(), 0);
  std::vector<Time> free_at;  // per lane: when its last span ends
  for (size_t i : order) {
    size_t l = 0;
    while (l < free_at.size() && free_at[l] > spans[i].first) ++l;
    if (l == free_at.size()) free_at.push_back(Time::zero());
    free_at[l] = spans[i].second;
    lane[i] = l;
  }
  count = std::max<size_t>(free_at.size(), 1);
  return lane;
}

std::string lane_name(const std::string& name, size_t lane) {
  return lane == 0 ? name : name + " " + std::to_string(lane + 1);
}

}  // namespace photonsim
