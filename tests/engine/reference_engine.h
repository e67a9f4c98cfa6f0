#pragma once
// Contract: a second, deliberately simple implementation of the forwarding
// rules docs/model.md states ("What a run means"), written from the text and not
// from sim/engine/network/network.cpp, to check the fast engine against. No performance
// tricks: every packet is a value from the start, every transmission and
// landing is one event, and an idle egress port finds its next packet by
// scanning everything waiting there.
//
// The rules it implements:
//  - steps are separated by a barrier; a step whose circuits differ from the
//    ones in place first waits reconfig_delay, then every step pays
//    step_overhead, then its transfers start;
//  - a transfer follows its explicit path; between u and v it takes the
//    (i mod multiplicity)-th of the parallel circuits u->v, i its place in
//    the step;
//  - a transfer is cut into chunks of workload.chunk (0: one chunk) and each
//    chunk into packets of fabric.packet (0: one per chunk), the last of each
//    carrying the remainder;
//  - a circuit sends one packet at a time, ceil(8 * bytes * 10^12 / bps) ps
//    each, and the packet lands `latency` later at the far end: whole under
//    store-and-forward or at its last hop, after `header` bytes under
//    cut-through (whole if it is not larger than the header);
//  - at every picosecond all landings and frees happen first, then every
//    idle circuit with something waiting sends the least packet by the
//    egress order (chunk: chunk index, forwarded before own, forwarded by the
//    time they became ready; fifo: the time they became ready, own packets
//    ready at the step's start, forwarded before own; chunk_fifo, the
//    default: chunk index, then as fifo); ties by the longer
//    remaining route, then the smaller flow index, then packet order;
//  - a step ends when its last byte lands (at its start if it moves nothing).
#include <cstdint>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/schedule.h"

namespace photonsim::reference {

struct StepTimes {
  Time begin;
  Time end;
};

inline Time serialization_of(int64_t bytes, const FabricSpec& fabric) {
  __extension__ using Wide = unsigned __int128;
  const Wide bits_ps = static_cast<Wide>(bytes) * 8 * 1'000'000'000'000ULL;
  const auto bps = static_cast<Wide>(fabric.bandwidth.bps());
  return Time::ps(static_cast<int64_t>((bits_ps + bps - 1) / bps));
}

class ReferenceEngine {
 public:
  ReferenceEngine(FabricSpec fabric, WorkloadSpec workload) : fabric_(fabric), workload_(workload) {}

  std::vector<StepTimes> replay(const Schedule& schedule) {
    std::vector<StepTimes> out;
    Time now = Time::zero();
    for (size_t s = 0; s < schedule.steps().size(); ++s) {
      StepTimes times;
      times.begin = now;
      Time start = now;
      if (schedule.reconfigures_before(s)) start += fabric_.reconfig_delay;
      start += fabric_.step_overhead;
      times.end = run_step(schedule.steps()[s],
                           schedule.topologies()[static_cast<size_t>(schedule.steps()[s].topology)], start);
      now = times.end;
      out.push_back(times);
    }
    return out;
  }

 private:
  struct Packet {
    size_t flow;
    size_t seq;     // packet order inside the flow
    int64_t chunk;  // chunk index inside the flow
    int64_t bytes;
    size_t hop = 0;  // circuits crossed so far
    Time ready;      // when it became sendable where it waits
  };
  struct Circuit {
    Time free_at;
    std::vector<size_t> waiting;  // packet indices
  };
  enum class Kind { land, free };
  struct Event {
    Kind kind;
    size_t index;  // packet (land) or circuit (free)
  };

  std::vector<size_t> circuits_of(const Transfer& t, size_t place, const Topology& topology) const {
    std::vector<Node> path = t.path;
    if (path.empty()) path = {t.src, t.dst};
    std::vector<size_t> route;
    for (size_t h = 0; h + 1 < path.size(); ++h) {
      std::vector<size_t> parallel;
      for (size_t e = 0; e < topology.edges().size(); ++e) {
        if (topology.edges()[e] == Edge{path[h], path[h + 1]}) parallel.push_back(e);
      }
      if (parallel.empty()) throw std::logic_error("reference: hop is not a circuit");
      route.push_back(parallel[place % parallel.size()]);
    }
    return route;
  }

  // The egress order as a tuple: smaller goes first.
  std::tuple<int64_t, int, int64_t, int64_t, size_t, size_t> rank(const Packet& p, Time step_start) const {
    const bool own = p.hop == 0;
    const auto remaining = static_cast<int64_t>(routes_[p.flow].size() - p.hop);
    if (fabric_.egress_order == EgressOrder::fifo) {
      const int64_t queued = own ? step_start.picoseconds() : p.ready.picoseconds();
      return {queued, own ? 1 : 0, 0, -remaining, p.flow, p.seq};
    }
    if (fabric_.egress_order == EgressOrder::chunk_fifo) {
      const int64_t queued = own ? step_start.picoseconds() : p.ready.picoseconds();
      return {p.chunk, 0, 2 * queued + (own ? 1 : 0), -remaining, p.flow, p.seq};
    }
    return {p.chunk, own ? 1 : 0, own ? 0 : p.ready.picoseconds(), -remaining, p.flow, p.seq};
  }

  Time run_step(const Step& step, const Topology& topology, Time start) {
    packets_.clear();
    routes_.clear();
    circuits_.assign(topology.edges().size(), Circuit{});
    events_.clear();
    for (size_t i = 0; i < step.transfers.size(); ++i) {
      const Transfer& t = step.transfers[i];
      routes_.push_back(circuits_of(t, i, topology));
      const int64_t total = t.bytes.count();
      const int64_t chunk = workload_.chunk.count() > 0 ? workload_.chunk.count() : total;
      size_t seq = 0;
      for (int64_t c = 0; c * chunk < total; ++c) {
        const int64_t chunk_bytes = std::min(chunk, total - c * chunk);
        const int64_t packet = fabric_.packet.count() > 0 ? fabric_.packet.count() : chunk_bytes;
        for (int64_t off = 0; off < chunk_bytes; off += packet) {
          packets_.push_back(Packet{i, seq++, c, std::min(packet, chunk_bytes - off), 0, start});
          circuits_[routes_[i].front()].waiting.push_back(packets_.size() - 1);
        }
      }
    }
    Time end = start;
    Time now = start;
    for (;;) {
      // Decide at `now`, after everything that happened at `now`.
      for (size_t c = 0; c < circuits_.size(); ++c) {
        Circuit& circuit = circuits_[c];
        if (circuit.free_at > now || circuit.waiting.empty()) continue;
        size_t best = 0;
        for (size_t w = 1; w < circuit.waiting.size(); ++w) {
          if (rank(packets_[circuit.waiting[w]], start) < rank(packets_[circuit.waiting[best]], start)) best = w;
        }
        const size_t id = circuit.waiting[best];
        circuit.waiting.erase(circuit.waiting.begin() + static_cast<std::ptrdiff_t>(best));
        send(id, c, now);
      }
      if (events_.empty()) break;
      auto first = events_.begin();
      now = first->first;
      const std::vector<Event> due = std::move(first->second);
      events_.erase(first);
      for (const Event& e : due) {
        if (e.kind == Kind::free) continue;  // free_at already says when
        Packet& p = packets_[e.index];
        ++p.hop;
        if (p.hop == routes_[p.flow].size()) {
          end = std::max(end, now);
        } else {
          p.ready = now;
          circuits_[routes_[p.flow][p.hop]].waiting.push_back(e.index);
        }
      }
    }
    return end;
  }

  void send(size_t id, size_t circuit, Time now) {
    const Packet& p = packets_[id];
    const Time whole = serialization_of(p.bytes, fabric_);
    const bool last_hop = p.hop + 1 == routes_[p.flow].size();
    Time until_forwardable = whole;
    if (fabric_.router == RouterMode::cut_through && !last_hop && p.bytes > fabric_.header.count()) {
      until_forwardable = serialization_of(fabric_.header.count(), fabric_);
    }
    circuits_[circuit].free_at = now + whole;
    events_[now + whole].push_back(Event{Kind::free, circuit});
    events_[now + until_forwardable + fabric_.latency].push_back(Event{Kind::land, id});
  }

  FabricSpec fabric_;
  WorkloadSpec workload_;
  std::vector<Packet> packets_;
  std::vector<std::vector<size_t>> routes_;
  std::vector<Circuit> circuits_;
  std::map<Time, std::vector<Event>> events_;
};

}  // namespace photonsim::reference
