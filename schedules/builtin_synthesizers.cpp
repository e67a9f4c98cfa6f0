// The built-in algorithms and planners: one add line each.
#include "schedules/allreduce_ring.h"
#include "schedules/alltoall_direct.h"
#include "schedules/broadcast_binomial.h"
#include "schedules/every_step_planner.h"
#include "schedules/static_planner.h"
#include "schedules/synthesizer_registry.h"

namespace photonsim {

namespace {
template <class T>
std::unique_ptr<T> make_unique_default() {
  return std::make_unique<T>();
}
}  // namespace

SynthesizerRegistry SynthesizerRegistry::with_builtins() {
  SynthesizerRegistry r;
  r.add_algorithm({"direct", {Collective::alltoall}, "static",
                   "all-to-all in n-1 pairwise rounds; on one topology, flows regrouped by hop count",
                   &make_unique_default<AlltoallDirect>});
  r.add_algorithm({"ring",
                   {Collective::allreduce, Collective::reducescatter, Collective::allgather},
                   "static", "ring reduce-scatter and/or all-gather on the cycle 0->1->...->n-1",
                   &make_unique_default<AllreduceRing>});
  r.add_algorithm({"binomial", {Collective::broadcast}, "every_step",
                   "binomial-tree broadcast from workload.root in ceil(log2 n) steps",
                   &make_unique_default<BroadcastBinomial>});
  // -- AllReduce / reduce-scatter / all-gather algorithms --
  // -- all-to-all and broadcast algorithms --

  r.add_planner({"static", "every step on one topology (synthesis.static_topology or synthesis.topology)",
                 &make_unique_default<StaticPlanner>});
  r.add_planner({"every_step", "each step on its own circuits, split when over the port limit",
                 &make_unique_default<EveryStepPlanner>});
  return r;
}

}  // namespace photonsim
