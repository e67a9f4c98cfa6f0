#pragma once
// Contract (tests): the fabric most tests run on - 800 Gbps circuits (10 ps
// per byte), 500 ns latency per hop, store-and-forward, no reconfiguration
// delay or step overhead - so a test states only what it changes.
#include "core/spec/fabric_spec.h"

namespace photonsim::testing_support {

inline constexpr int64_t k800GbpsInBitsPerSecond = 800'000'000'000;

inline FabricSpec test_fabric(int gpus, int ports = 1, CircuitKind circuits = CircuitKind::directed) {
  FabricSpec f;
  f.gpus = gpus;
  f.ports = ports;
  f.circuits = circuits;
  f.bandwidth = Bandwidth::bits_per_second(k800GbpsInBitsPerSecond);
  f.latency = Time::ns(500);
  f.router = RouterMode::store_and_forward;
  return f;
}

}  // namespace photonsim::testing_support
