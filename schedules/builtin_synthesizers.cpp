// The built-in algorithms and planners: one add line each.
#include "schedules/allreduce_ring.h"
#include "schedules/alltoall_direct.h"
#include "schedules/alltoall_bridge.h"
#include "schedules/alltoall_bruck.h"
#include "schedules/alltoall_dex.h"
#include "schedules/alltoall_retri.h"
#include "schedules/broadcast_binary_tree.h"
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
  r.add_algorithm({"bruck", {Collective::alltoall}, "static",
                   "Bruck's index all-to-all: ceil(log_r n) digit rounds, r-1 transfers per node per round",
                   &make_unique_default<AlltoallBruck>, {"radix"}, "radix=R (default 2), R >= 2"});
  r.add_algorithm({"bridge", {Collective::alltoall}, "static",
                   "Bridge's mirrored Bruck all-to-all: blocks take the shorter way, +-2^k in phase k, floor(log2 n) phases",
                   &make_unique_default<AlltoallBridge>});
  r.add_algorithm({"dex", {Collective::alltoall}, "static",
                   "hypercube dimension-exchange all-to-all (PCCL): log2 n steps, n/2 blocks to i xor 2^k",
                   &make_unique_default<AlltoallDex>, {}, "n a power of two"});
  r.add_algorithm({"retri", {Collective::alltoall}, "static",
                   "ReTri balanced-ternary all-to-all: ceil(log3 n) phases, +-3^k (any n; n = 3^s is the paper's)",
                   &make_unique_default<AlltoallRetri>});
  r.add_algorithm({"binary_tree", {Collective::broadcast}, "every_step",
                   "pipelined binary-tree broadcast of ceil(message/chunk) segments in depth + segments - 1 steps",
                   &make_unique_default<BroadcastBinaryTree>});

  r.add_planner({"static", "every step on one topology (synthesis.static_topology or synthesis.topology)",
                 &make_unique_default<StaticPlanner>});
  r.add_planner({"every_step", "each step on its own circuits, split when over the port limit",
                 &make_unique_default<EveryStepPlanner>});
  return r;
}

}  // namespace photonsim
