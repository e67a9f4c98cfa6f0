#pragma once
// Contract: Harvest Sec. 5, the optimal reconfiguration schedule of
// recursive doubling without an optimiser. Setting: n = 2^j GPUs, one
// directed port each (the paper's 1-D interconnect), step t sends
// `bytes` from every u to u + 2^exponent (mod n). By Obs. 3 and 4 the best
// topology for any range of steps is the ring that matches its smallest
// distance, u -> u + 2^e_min: step t then crosses h = 2^(e_t - e_min) hops,
// and every circuit carries h flows (congestion h, theta = 1/h), so
//   t_c(range) = sum_t alpha + delta * h_t + beta * bytes_t * h_t,
// which for reduce-scatter steps a..b (exponent i-1, bytes m/2^i) is Eq. 8:
//   alpha (b-a+1) + delta (2^(b-a+1) - 1) + beta m (b-a+1) / 2^a.
// With HarvestCost::overlapped each step costs c.step_ps(bytes, h, h, bytes)
// instead; the smallest-distance ring stays the best for a range (both
// costs grow with h), so the same dynamic program is optimal for either.
// The all-gather half (distances shrinking) is the same sum over its steps.
// Each range costs O(1) (prefix sums); the schedule then follows from
// optimal_harvest_partition (Algorithm 1 with the O(1) CompletionTime) in
// O(L^3) for L steps, L <= 2 log2 n: microseconds at n = 1024. Topology ids
// in the result are ring exponents e (the ring u -> u + 2^e).
#include <optional>
#include <vector>

#include "schedules/cost/harvest/harvest_coefficients.h"
#include "schedules/planners/harvest/harvest_partition.h"

namespace photonsim {

struct HarvestRdStep {
  int exponent = 0;  // every u sends to u + 2^exponent
  double bytes = 0;  // per sender (the paper's m_i)
};

// Eq. 8 as printed: reduce-scatter steps a..b (1-based) of recursive
// doubling with an m-byte message, on the ring that matches step a.
double harvest_eq8_ps(int a, int b, double message_bytes, const HarvestCoefficients& c);

// The paper's reduce-scatter steps for n = 2^j: exponent i-1, m/2^i bytes, i = 1..j.
// Throws Error unless gpus is a power of two >= 2.
std::vector<HarvestRdStep> harvest_rd_reduce_scatter(int gpus, double message_bytes);

// One step on the ring u -> u + 2^ring_exponent under c.cost (infinity when that ring cannot reach u + 2^exponent).
double harvest_rd_step_ps(const HarvestRdStep& step, int ring_exponent, const HarvestCoefficients& c);

// The optimal schedule; `initial_exponent` is the ring the fabric holds
// (nullopt: unconfigured, the first configuration is charged).
HarvestPartition harvest_recursive_doubling(const std::vector<HarvestRdStep>& steps, const HarvestCoefficients& c,
                                            std::optional<int> initial_exponent,
                                            std::optional<int> max_reconfigurations = std::nullopt);

}  // namespace photonsim
