#pragma once
// Contract: what a run did over time, recorded only when the caller asks
// (run_schedule's `timeline`): per egress port, the spans it was busy
// sending (back-to-back packets to the same peer in the same step merged into
// one span) and the spans it was dark for a reconfiguration; per transfer,
// when it was released (what it carries was at its sender and the run let it
// go), when its first packet could leave (after the step's start-up) and when
// its last byte was delivered. Steps' own spans are RunResult::steps. Times
// are absolute simulated times; nothing here is aggregated or sampled (the
// trace writer bounds what it writes).
#include <cstdint>
#include <vector>

#include "core/time.h"
#include "topology/topology.h"

namespace photonsim {

enum class PortActivity : uint8_t { busy, dark };

struct PortSpan {
  Time begin;
  Time end;
  Node peer = 0;  // busy: the GPU the circuit leads to; dark: the GPU it will lead to
  uint32_t step = 0;
  PortActivity activity = PortActivity::busy;
};

struct PortTimeline {
  Node gpu = 0;
  uint32_t port = 0;            // the GPU's egress port (0 .. fabric.ports - 1)
  std::vector<PortSpan> spans;  // in time order
};

struct TransferSpan {
  Node src = 0;
  Node dst = 0;
  uint32_t step = 0;
  uint32_t transfer = 0;  // its place in the step
  Time released;
  Time injected;
  Time delivered;
};

struct Timeline {
  std::vector<PortTimeline> ports;      // sorted by (gpu, port); only ports that were ever busy or dark
  std::vector<TransferSpan> transfers;  // in step order, then transfer order
};

}  // namespace photonsim
