#include "core/fabric_spec.h"

namespace photonsim {

const char* to_string(CircuitKind kind) {
  return kind == CircuitKind::directed ? "directed" : "bidirectional";
}

const char* to_string(RouterMode mode) {
  return mode == RouterMode::cut_through ? "cut_through" : "store_and_forward";
}

const char* to_string(EgressOrder order) { return order == EgressOrder::chunk ? "chunk" : "fifo"; }

}  // namespace photonsim
