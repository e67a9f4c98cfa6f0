#pragma once
// Contract: fills a Timeline as a run goes: busy() merges a span into the
// port's last one when it continues it (same peer and step, no gap); dark()
// and transfer() append. finish() sorts the ports by (gpu, port). Ports are
// numbered 0 .. ports_per_gpu - 1 at each GPU.
#include <cstdint>
#include <vector>

#include "sim/engine/network/timeline.h"

namespace photonsim {

class TimelineRecorder {
 public:
  TimelineRecorder(Timeline& timeline, int gpus, int ports_per_gpu);

  void busy(Node gpu, uint32_t port, Node peer, uint32_t step, Time begin, Time end);
  void dark(Node gpu, uint32_t port, Node peer, uint32_t step, Time begin, Time end);
  void transfer(const TransferSpan& span) { timeline_.transfers.push_back(span); }
  std::vector<TransferSpan>& transfers() { return timeline_.transfers; }
  void finish();

 private:
  std::vector<PortSpan>& spans(Node gpu, uint32_t port);

  Timeline& timeline_;
  uint32_t ports_per_gpu_;
  std::vector<int32_t> index_;  // gpu * ports_per_gpu + port -> index in timeline_.ports, -1 if none yet
};

}  // namespace photonsim
