#pragma once
// Contract: the validated physical parameters of one fabric (YAML `fabric.*`).
// Plain value; the config loader guarantees the invariants noted per field.
#include <cstdint>

#include "core/enum_names.h"
#include "core/time.h"
#include "core/units.h"

namespace photonsim {

enum class CircuitKind { directed, bidirectional };
enum class RouterMode { cut_through, store_and_forward };
// Which waiting packet an idle egress port sends next (Network's contract).
enum class EgressOrder { chunk, fifo };

inline constexpr EnumName<CircuitKind> kCircuitKindNames[] = {{CircuitKind::directed, "directed"},
                                                              {CircuitKind::bidirectional, "bidirectional"}};
inline constexpr EnumName<RouterMode> kRouterModeNames[] = {{RouterMode::cut_through, "cut_through"},
                                                            {RouterMode::store_and_forward, "store_and_forward"}};
inline constexpr EnumName<EgressOrder> kEgressOrderNames[] = {{EgressOrder::chunk, "chunk"},
                                                              {EgressOrder::fifo, "fifo"}};

struct FabricSpec {
  int gpus = 0;   // >= 2
  int ports = 1;  // optical ports per GPU, >= 1
  CircuitKind circuits = CircuitKind::directed;
  Bandwidth bandwidth;  // per-circuit line rate, > 0
  Time latency;         // per-hop propagation, >= 0
  RouterMode router = RouterMode::store_and_forward;
  Bytes packet;  // forwarding unit; 0 = one packet per chunk
  Bytes header;  // cut-through forwards once this much has arrived
  EgressOrder egress_order = EgressOrder::chunk;
  Time reconfig_delay;  // alpha_r, >= 0
  Time step_overhead;   // alpha, paid once per step, >= 0
};

const char* to_string(CircuitKind kind);
const char* to_string(RouterMode mode);
const char* to_string(EgressOrder order);

}  // namespace photonsim
