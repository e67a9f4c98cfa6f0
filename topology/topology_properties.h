#pragma once
// Contract: hop-count properties of one topology, computed by breadth-first
// search over its directed circuits (a bidirectional circuit is its two
// directed edges; parallel circuits count once). Pure functions of the
// topology; each call costs O(n * (n + edges)), fine for n = 1024, degree 8.
#include <vector>

#include "topology/topology.h"

namespace photonsim {

// distances[s][t] = fewest hops from s to t; 0 on the diagonal, -1 when t is
// unreachable from s.
std::vector<std::vector<int>> hop_distances(const Topology& topology);

// True when every node reaches every other node (vacuously true for n <= 1).
bool is_strongly_connected(const Topology& topology);

// Largest hop distance over ordered pairs, or -1 when not strongly connected.
int diameter(const Topology& topology);

// Mean hop distance over ordered pairs s != t. Throws Error naming the
// topology and an unreachable pair, or when there are fewer than 2 GPUs.
double average_hop_distance(const Topology& topology);

// True when every node has out-degree == in-degree == degree (parallel
// circuits counted with multiplicity).
bool is_regular(const Topology& topology, int degree);

}  // namespace photonsim
