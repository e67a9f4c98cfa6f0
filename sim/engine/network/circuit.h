#pragma once
// Contract: one optical circuit from GPU `from` to GPU `to`, as htsim
// composes a link: the EgressPort at `from` (waiting packets and the
// serialiser at line rate) followed by the Pipe to `to`, whose far end is the
// GPUs' router. Whether it carries packets is the switch's doing (it lit it;
// what it is commanded to is the switch's, switch/optical_switch.h).
#include "core/time.h"
#include "sim/engine/network/egress_port.h"
#include "sim/engine/network/pipe.h"

namespace photonsim {

struct Circuit {
  EgressPort egress;
  Pipe pipe;
  bool lit = false;  // the switch lit it: it carries packets

  // Nothing waiting, on the wire or being serialised.
  bool idle(Time now) const { return egress.idle(now) && pipe.empty(); }
};

}  // namespace photonsim
