#include "sim/engine/network/timeline_recorder.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace photonsim {

TimelineRecorder::TimelineRecorder(Timeline& timeline, int gpus, int ports_per_gpu)
    : timeline_(timeline),
      ports_per_gpu_(static_cast<uint32_t>(ports_per_gpu)),
      index_(static_cast<size_t>(gpus) * static_cast<size_t>(ports_per_gpu), -1) {
  timeline_ = Timeline{};
}

std::vector<PortSpan>& TimelineRecorder::spans(Node gpu, uint32_t port) {
  const size_t key = static_cast<size_t>(gpu) * ports_per_gpu_ + port;
  if (port >= ports_per_gpu_ || key >= index_.size()) {
    throw std::logic_error("timeline: port " + std::to_string(port) + " of GPU " + std::to_string(gpu) +
                           " is outside the fabric");
  }
  if (index_[key] < 0) {
    index_[key] = static_cast<int32_t>(timeline_.ports.size());
    timeline_.ports.push_back(PortTimeline{gpu, port, {}});
  }
  return timeline_.ports[static_cast<size_t>(index_[key])].spans;
}

void TimelineRecorder::busy(Node gpu, uint32_t port, Node peer, uint32_t step, Time begin, Time end) {
  std::vector<PortSpan>& s = spans(gpu, port);
  if (!s.empty() && s.back().activity == PortActivity::busy && s.back().end == begin && s.back().peer == peer &&
      s.back().step == step) {
    s.back().end = end;
    return;
  }
  s.push_back(PortSpan{begin, end, peer, step, PortActivity::busy});
}

void TimelineRecorder::dark(Node gpu, uint32_t port, Node peer, uint32_t step, Time begin, Time end) {
  spans(gpu, port).push_back(PortSpan{begin, end, peer, step, PortActivity::dark});
}

void TimelineRecorder::finish() {
  std::sort(timeline_.ports.begin(), timeline_.ports.end(), [](const PortTimeline& a, const PortTimeline& b) {
    return a.gpu != b.gpu ? a.gpu < b.gpu : a.port < b.port;
  });
  for (PortTimeline& p : timeline_.ports) {
    std::stable_sort(p.spans.begin(), p.spans.end(),
                     [](const PortSpan& a, const PortSpan& b) { return a.begin < b.begin; });
  }
  std::fill(index_.begin(), index_.end(), -1);
}

}  // namespace photonsim
