#pragma once
// Contract: one optical circuit from GPU `from` to GPU `to`, as htsim
// composes a link: the egress port at `from` (waiting packets and the
// serialiser at line rate) followed by the propagation pipe to `to`. Plain
// state that the Network drives: whether it carries packets (the switch lit
// it: what it is commanded to is the switch's, switch/optical_switch.h), and
// the Network's record of the events it has already asked for on this
// circuit's behalf, so that it never asks twice.
#include <cstdint>

#include "core/units.h"
#include "sim/engine/network/egress_queue.h"
#include "sim/engine/network/pipe.h"
#include "topology/topology.h"

namespace photonsim {

struct Circuit {
  Node from = 0;
  Node to = 0;
  uint32_t port = 0;  // the egress port at `from`
  Bandwidth rate;     // its line rate (topology/circuit_rates.h)
  bool lit = false;   // the switch lit it: it carries packets
  EgressQueue egress;
  Pipe pipe;
  bool decision_pending = false;  // in the decide batch of when its serialiser is (or becomes) free
  // Packets are mostly full-sized: the last size's serialisation at `rate`,
  // instead of a 128-bit division per packet-hop.
  uint32_t memo_bytes = UINT32_MAX;
  Time memo_time;

  void set_rate(Bandwidth line_rate) {
    if (line_rate != rate) memo_bytes = UINT32_MAX;
    rate = line_rate;
  }
};

}  // namespace photonsim
