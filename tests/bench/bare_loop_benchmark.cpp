// The reference point issue 8 sets for the engine: "a bare loop with one event
// per packet-hop, per-link in-flight FIFOs with only each link's head in a
// 4-ary heap". It runs the first engine case (configs/bench/alltoall64_ring:
// 64 GPUs, direct all-to-all on a unidirectional ring, 4 KiB packets, 1 MiB
// per pair, 800 Gbps, 500 ns, store-and-forward) with nothing else: links
// serve packets first come, first served, every source's packets are queued
// at time 0 (round robin over destinations), and there are no flows, chunks,
// priorities, link-free events or checks. Its packet-hops/s, printed by
// scripts/dev/bench next to the engine's, calibrates the machine: the engine's
// figure over this one is the engine's overhead, whatever the machine's speed.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/ring_buffer.h"

namespace photonsim {
namespace {

constexpr uint32_t kGpus = 64;
constexpr uint32_t kPacketsPerPair = 256;    // 1 MiB / 4 KiB
constexpr int64_t kSerializationPs = 40960;  // 4096 B at 800 Gbps
constexpr int64_t kLatencyPs = 500000;       // 500 ns

struct InFlight {
  int64_t arrives;
  uint32_t hops_left;  // after this hop
};

// A 4-ary min-heap of link heads keyed on (arrival time, link).
class LinkHeadHeap {
 public:
  struct Head {
    int64_t arrives;
    uint32_t link;
    bool before(const Head& o) const { return arrives != o.arrives ? arrives < o.arrives : link < o.link; }
  };
  bool empty() const { return heap_.empty(); }
  const Head& top() const { return heap_.front(); }
  void push(Head h) {
    heap_.push_back(h);
    size_t i = heap_.size() - 1;
    while (i > 0 && h.before(heap_[(i - 1) / 4])) {
      heap_[i] = heap_[(i - 1) / 4];
      i = (i - 1) / 4;
    }
    heap_[i] = h;
  }
  void replace_top(Head h) {
    heap_.front() = h;
    sift_down();
  }
  void pop() {
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down();
  }

 private:
  void sift_down() {
    const size_t n = heap_.size();
    const Head moving = heap_.front();
    size_t i = 0;
    for (;;) {
      const size_t first = 4 * i + 1;
      if (first >= n) break;
      size_t best = first;
      for (size_t c = first + 1; c < std::min(first + 4, n); ++c) {
        if (heap_[c].before(heap_[best])) best = c;
      }
      if (!heap_[best].before(moving)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = moving;
  }
  std::vector<Head> heap_;
};

// Returns the packet-hops simulated; `finish` gets the last arrival (ps).
uint64_t run_bare_loop(int64_t& finish) {
  std::vector<RingBuffer<InFlight>> in_flight(kGpus);
  std::vector<int64_t> free_at(kGpus, 0);
  LinkHeadHeap heads;
  for (uint32_t source = 0; source < kGpus; ++source) {
    for (uint32_t k = 0; k < kPacketsPerPair; ++k) {
      for (uint32_t distance = 1; distance < kGpus; ++distance) {
        in_flight[source].push_back({free_at[source] + kSerializationPs + kLatencyPs, distance - 1});
        free_at[source] += kSerializationPs;
      }
    }
    heads.push({in_flight[source].front().arrives, source});
  }
  uint64_t hops = 0;
  while (!heads.empty()) {
    const auto [now, link] = heads.top();
    const InFlight landed = in_flight[link].pop_front();
    ++hops;
    finish = now;
    if (landed.hops_left > 0) {
      const uint32_t next = link + 1 == kGpus ? 0 : link + 1;
      const int64_t departs = std::max(now, free_at[next]);
      free_at[next] = departs + kSerializationPs;
      const bool was_idle = in_flight[next].empty();
      in_flight[next].push_back({departs + kSerializationPs + kLatencyPs, landed.hops_left - 1});
      if (was_idle) heads.push({in_flight[next].front().arrives, next});
    }
    if (in_flight[link].empty()) {
      heads.pop();
    } else {
      heads.replace_top({in_flight[link].front().arrives, link});
    }
  }
  return hops;
}

void BM_BareLoopRing64(benchmark::State& state) {
  uint64_t hops = 0;
  int64_t finish = 0;
  for (auto _ : state) {
    hops = run_bare_loop(finish);
    benchmark::DoNotOptimize(finish);
  }
  // Every pair (s, d) sends 256 packets over (d - s) mod 64 links.
  if (hops != uint64_t{kPacketsPerPair} * kGpus * (kGpus * (kGpus - 1) / 2)) {
    state.SkipWithError("wrong number of packet-hops");
  }
  state.counters["packet_hops"] = static_cast<double>(hops);
  state.counters["pkt_hops/s"] = benchmark::Counter(static_cast<double>(hops) * static_cast<double>(state.iterations()),
                                                    benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BareLoopRing64)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3);

}  // namespace
}  // namespace photonsim

BENCHMARK_MAIN();
