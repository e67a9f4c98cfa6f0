#pragma once
// Contract: a deterministic hash of a Topology consistent with
// Topology::operator== (GPU count and sorted circuit multiset; the name is
// ignored), so planners can key std::unordered_map<Topology, V, TopologyHash>.
// The same topology hashes the same on every run, platform and process.
#include <cstddef>
#include <cstdint>

#include "topology/topology.h"

namespace photonsim {

struct TopologyHash {
  size_t operator()(const Topology& topology) const {
    // Each step h <- mix(h ^ word) is a bijection in h, so two edge lists of
    // equal length that differ in exactly one position always hash apart.
    uint64_t h = mix(0x243f6a8885a308d3ULL ^ static_cast<uint64_t>(static_cast<uint32_t>(topology.gpus())));
    for (const Edge& e : topology.edges()) {
      h = mix(h ^ ((static_cast<uint64_t>(e.first) << 32) | static_cast<uint64_t>(e.second)));
    }
    h = mix(h ^ static_cast<uint64_t>(topology.edges().size()));
    return static_cast<size_t>(h);
  }

 private:
  // splitmix64's finaliser: a bijective avalanche mix of 64 bits.
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

}  // namespace photonsim
