#pragma once
// Contract: one lit optical circuit from GPU `from` to GPU `to`, as htsim
// composes a link: the egress port at `from` (waiting packets and the
// serialiser at line rate) followed by the propagation pipe to `to`. Plain
// state that the Network drives; the flag is the Network's record of
// the events it has already asked for on this circuit's behalf, so that it
// never asks twice.
#include "sim/engine/egress_queue.h"
#include "sim/engine/pipe.h"
#include "topology/topology.h"

namespace photonsim {

struct Circuit {
  Node from = 0;
  Node to = 0;
  uint32_t port = 0;  // the egress port at `from`
  bool lit = false;
  EgressQueue egress;
  Pipe pipe;
  bool decision_pending = false;  // in the decide batch of when its serialiser is (or becomes) free
};

}  // namespace photonsim
