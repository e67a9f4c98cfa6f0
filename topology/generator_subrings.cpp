#include "topology/generators.h"

namespace photonsim {

Topology make_subrings(const ComponentParams& params, const GeneratorContext& context) {
  const int n = context.gpus();
  // ReTri phase k uses m = 3^k: `phase` is the convenient way to say so.
  if (params.has("m") && params.has("phase")) params.fail("give either m or phase, not both");
  int64_t m = 1;
  if (params.has("phase")) {
    const int64_t phase = params.integer("phase");
    if (phase < 0 || phase > 38) params.fail("phase", "must be in 0..38, got " + std::to_string(phase));
    for (int64_t k = 0; k < phase; ++k) m *= 3;
  } else {
    m = params.integer("m", 1);
  }
  if (m < 1) params.fail("m", "must be >= 1, got " + std::to_string(m));
  const int64_t step = m % n;
  if (step == 0)
    params.fail("m", std::to_string(m) + " is a multiple of n = " + std::to_string(n) +
                         ": every subring would be a single node");
  // Node i joins i - m and i + m (mod n): the residue classes mod gcd(n, m) become rings.
  // A subring of two nodes gets two parallel circuits, one per transceiver.
  std::vector<Edge> edges;
  for (int64_t u = 0; u < n; ++u) {
    edges.push_back({static_cast<Node>(u), static_cast<Node>((u + step) % n)});
    edges.push_back({static_cast<Node>(u), static_cast<Node>((u - step + n) % n)});
  }
  return Topology("subrings(" + std::to_string(m) + ")", n, std::move(edges));
}

TopologyGenerator subrings_generator() {
  return {"subrings",
          "ReTri Algorithm 1: i <-> i + M mod n, the residue classes mod gcd(n, M) as rings",
          {ParameterSpec::computed("m", ParameterType::integer, "1", "the stride M"),
           ParameterSpec::computed("phase", ParameterType::integer, "none: m", "K, for M = 3^K (instead of m)")},
          &make_subrings};
}

}  // namespace photonsim
