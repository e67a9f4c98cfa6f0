#pragma once
// Contract: one lit optical circuit from GPU `from` to GPU `to`, as htsim
// composes a link: the egress port at `from` (waiting packets and the
// serialiser at line rate) followed by the propagation pipe to `to`. Plain
// state that the Network drives; the two flags are the Network's record of
// the events it has already asked for on this circuit's behalf, so that it
// never asks twice.
#include "sim/engine/egress_queue.h"
#include "sim/engine/pipe.h"
#include "topology/topology.h"

namespace photonsim {

struct Circuit {
  Node from = 0;
  Node to = 0;
  EgressQueue egress;
  Pipe pipe;
  bool free_event_pending = false;  // a circuit_free event is due at egress.free_at()
  bool in_decision_batch = false;   // the port chooses at this picosecond's decide event
};

}  // namespace photonsim
