#pragma once
// Contract: what a Network event is about, packed into the one uint64 token
// the EventList hands back to its handler: the kind of event in the top 8
// bits, the circuit it concerns (0 when none) in the low 56. Packing and
// unpacking live only here, so no caller shifts or masks a token by hand.
#include <cstdint>

namespace photonsim {

class EventToken {
 public:
  enum class Kind : uint8_t {
    start = 1,    // the step's flows queue their first packets
    landing = 3,  // the first packet in a circuit's pipe reaches the far GPU
    decide = 4,   // ports free at this picosecond choose what to send, after its landings (id: the batch)
    learn = 7,    // a flow learns of a lost packet (id: the flow; docs/model.md, "Lost circuits"): its rewind
                  // goes after every landing already due at this picosecond
    rewind = 5,   // the flow rewinds (id: the flow)
    resume = 6,   // a flow waiting for its route checks it again (id: the flow)
  };
  static constexpr int kIdBits = 56;
  static constexpr uint64_t kIdMask = (uint64_t{1} << kIdBits) - 1;

  // `id` must be below 2^56 (a circuit index, a uint32_t, always is).
  constexpr EventToken(Kind kind, uint64_t id) : raw_((static_cast<uint64_t>(kind) << kIdBits) | id) {}
  static constexpr EventToken from_raw(uint64_t raw) { return EventToken(raw); }

  constexpr Kind kind() const { return static_cast<Kind>(raw_ >> kIdBits); }
  constexpr uint64_t id() const { return raw_ & kIdMask; }
  constexpr uint64_t raw() const { return raw_; }

 private:
  constexpr explicit EventToken(uint64_t raw) : raw_(raw) {}
  uint64_t raw_;
};

}  // namespace photonsim
