#include "sim/engine/run_driver.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/engine/network/network.h"
#include "sim/engine/network/train_network.h"

namespace photonsim {

namespace {

constexpr uint64_t kPolicyTokenMask = (uint64_t{1} << RunDriver::kPolicyTokenBits) - 1;

}  // namespace

RunDriver::RunDriver(const FabricSpec& fabric, Segmentation segmentation, Timeline* timeline)
    : network_(fabric.packet_engine == PacketEngine::reference || !TrainNetwork::exact_on(fabric)
                   ? std::unique_ptr<DataPlane>(std::make_unique<Network>(fabric, segmentation, events_))
                   : std::unique_ptr<DataPlane>(std::make_unique<TrainNetwork>(fabric, segmentation, events_))),
      switch_(fabric, *network_, static_cast<size_t>(fabric.gpus) * static_cast<size_t>(fabric.ports)) {
  if (timeline != nullptr) recorder_.emplace(*timeline, fabric.gpus, fabric.ports);
  network_->record_into(recorder());
  switch_.record_into(recorder());
  network_->set_listener(this);
}

uint32_t RunDriver::enlist(RunPolicy& policy) {
  if (policies_.size() >= (size_t{1} << (64 - kPolicyTokenBits))) {
    throw std::logic_error("RunDriver: more policies than a timer token can name");
  }
  policies_.push_back(&policy);
  pending_.push_back(0);
  return static_cast<uint32_t>(policies_.size() - 1);
}

void RunDriver::timer(uint32_t policy, Time at, uint64_t token) {
  if (token > kPolicyTokenMask) throw std::logic_error("RunDriver: a timer token past 2^40");
  ++pending_[policy];
  events_.schedule(at, *this, (static_cast<uint64_t>(policy) << kPolicyTokenBits) | token, EventPriority::arrival);
}

uint32_t RunDriver::inject(uint32_t policy, std::vector<FlowSpec> flows, Time at) {
  // Nothing under way (a barrier step after the last, a graph node after a
  // chain's end): the delivered flows go, so memory follows the flows under
  // way rather than every flow of the run.
  if (network_->all_delivered()) network_->forget_delivered_flows();
  const uint32_t first = network_->add_flows(std::move(flows), at);
  if (flow_owners_.empty() || flow_owners_.back().policy != policy) flow_owners_.push_back({first, policy});
  return first;
}

void RunDriver::run(const std::function<void(uint64_t fired)>& every_mebievent) {
  delivering_to_.reset();
  if (!every_mebievent) {
    events_.run();
    return;
  }
  for (uint64_t fired = 1; events_.step(); ++fired) {
    if ((fired & 0xfffff) == 0) every_mebievent(events_.fired());
  }
}

NetworkStats RunDriver::finish() {
  network_->check_conservation();
  NetworkStats stats = network_->stats();
  // Under failures every byte cut and never delivered was dropped (and cut again).
  if (stats.bytes_injected != stats.bytes_delivered + stats.bytes_dropped) {
    throw std::logic_error("bytes injected (" + std::to_string(stats.bytes_injected) + ") != bytes delivered (" +
                           std::to_string(stats.bytes_delivered) + ") + dropped (" +
                           std::to_string(stats.bytes_dropped) + ")");
  }
  if (recorder_) recorder_->finish();
  return stats;
}

void RunDriver::on_flow_delivered(uint32_t flow, Time now) {
  const auto owner = std::upper_bound(flow_owners_.begin(), flow_owners_.end(), flow,
                                      [](uint32_t f, const FlowOwners& o) { return f < o.first; });
  if (owner == flow_owners_.begin()) throw std::logic_error("RunDriver: a flow nobody injected was delivered");
  const uint32_t policy = std::prev(owner)->policy;
  delivering_to_ = policy;
  policies_[policy]->on_flow_delivered(flow, now);
  delivering_to_.reset();
}

void RunDriver::on_event(Time now, uint64_t token) {
  const auto policy = static_cast<uint32_t>(token >> kPolicyTokenBits);
  --pending_[policy];
  if (policies_[policy] != nullptr) policies_[policy]->on_timer(now, token & kPolicyTokenMask);
}

}  // namespace photonsim
