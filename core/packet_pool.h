#pragma once
// Contract: hands out packets by index and takes them back. Storage grows to
// the peak number of packets alive at once and is then reused, so the steady
// state allocates nothing per packet. Indices stay valid until released.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/packet.h"

namespace photonsim {

class PacketPool {
 public:
  PacketId acquire() {
    if (free_.empty()) {
      if (slots_.size() >= UINT32_MAX) throw std::length_error("packet pool exhausted");
      slots_.emplace_back();
      ++live_;
      return static_cast<PacketId>(slots_.size() - 1);
    }
    PacketId id = free_.back();
    free_.pop_back();
    slots_[id] = Packet{};
    ++live_;
    return id;
  }
  void release(PacketId id) {
    free_.push_back(id);
    --live_;
  }
  Packet& operator[](PacketId id) { return slots_[id]; }
  const Packet& operator[](PacketId id) const { return slots_[id]; }

  size_t live() const { return live_; }
  size_t capacity() const { return slots_.size(); }
  // The most packets alive at once so far: a slot is added only when every
  // slot is live, so this is the storage's size.
  size_t peak_live() const { return slots_.size(); }

 private:
  std::vector<Packet> slots_;
  std::vector<PacketId> free_;
  size_t live_ = 0;
};

}  // namespace photonsim
