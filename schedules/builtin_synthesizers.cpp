// The built-in algorithms and planners: one add line each.
#include "schedules/algorithms/allreduce_ring.h"
#include "schedules/algorithms/alltoall_direct.h"
#include "schedules/algorithms/alltoall_bridge.h"
#include "schedules/algorithms/alltoall_bruck.h"
#include "schedules/algorithms/alltoall_dex.h"
#include "schedules/algorithms/alltoall_retri.h"
#include "schedules/algorithms/broadcast_binary_tree.h"
#include "schedules/algorithms/broadcast_binomial.h"
#include "schedules/algorithms/bine.h"
#include "schedules/algorithms/bruck_concat.h"
#include "schedules/algorithms/bucket.h"
#include "schedules/alltoall/baselines/directconnect_baseline.h"
#include "schedules/planners/every_step_planner.h"
#include "schedules/alltoall/baselines/fast_baseline.h"
#include "schedules/alltoall/joint_planner.h"
#include "schedules/alltoall/baselines/mixnet_baseline.h"
#include "schedules/alltoall/baselines/pairwise_baseline.h"
#include "schedules/alltoall/rdc.h"
#include "schedules/alltoall/baselines/static_ring_baseline.h"
#include "schedules/planners/harvest/harvest_planner.h"
#include "schedules/planners/pccl_planner.h"
#include "schedules/planners/exhaustive_planner.h"
#include "schedules/planners/segments_planner.h"
#include "schedules/algorithms/recursive_doubling.h"
#include "schedules/algorithms/recursive_doubling_full.h"
#include "schedules/algorithms/rhd.h"
#include "schedules/planners/static_planner.h"
#include "schedules/algorithms/swing.h"
#include "schedules/alltoall/baselines/topoopt_baseline.h"
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
  r.add_algorithm({"recursive_doubling", {Collective::allreduce, Collective::reducescatter, Collective::allgather}, "static",
                   "Harvest's cyclic recursive doubling, any n: ceil(log2 n) steps per half, u -> u+2^(i-1), m/2^i in step i",
                   &make_unique_default<RecursiveDoubling>});
  r.add_algorithm({"recursive_doubling_full", {Collective::allreduce, Collective::allgather}, "static",
                   "latency-optimal recursive doubling: log2 n steps, whole vector exchanged with u xor 2^i",
                   &make_unique_default<RecursiveDoublingFull>, {}, "n a power of two"});
  r.add_algorithm({"rhd", {Collective::allreduce, Collective::reducescatter, Collective::allgather}, "static",
                   "Rabenseifner recursive halving + doubling, any n (fold to 2^floor(log2 n): +2 steps)",
                   &make_unique_default<Rhd>});
  r.add_algorithm({"swing", {Collective::allreduce, Collective::reducescatter, Collective::allgather}, "static",
                   "Swing: log2 n steps per half, peer u +- rho(s), rho = 1, -1, 3, -5, ...; halves the data each step",
                   &make_unique_default<Swing>, {}, "n a power of two"});
  r.add_algorithm({"bine", {Collective::allreduce, Collective::reducescatter, Collective::allgather}, "static",
                   "Bine negabinary butterfly: log2 n steps per half (doubling = Swing's pattern, halving = farthest first)",
                   &make_unique_default<Bine>, {"distance"}, "distance=doubling|halving (default doubling); n a power of two"});
  r.add_algorithm({"bucket", {Collective::allreduce, Collective::reducescatter, Collective::allgather}, "static",
                   "bucket on a 2D/3D torus: ring reduce-scatter along each dimension, all-gather mirrored",
                   &make_unique_default<Bucket>, {"dims"}, "dims=AxB[xC] (default: factored from n)"});
  r.add_algorithm({"bruck_concat", {Collective::allgather}, "static",
                   "Bruck's concatenation all-gather: ceil(log2 n) steps, u sends all it has to u-2^k",
                   &make_unique_default<BruckConcat>});
  // -- all-to-all and broadcast algorithms --
  r.add_algorithm({"bruck", {Collective::alltoall}, "static",
                   "Bruck's index all-to-all: ceil(log_r n) digit rounds, r-1 transfers per node per round",
                   &make_unique_default<AlltoallBruck>, {"radix"}, "radix=R (default 2), R >= 2"});
  r.add_algorithm({"bridge", {Collective::alltoall}, "static",
                   "Bridge's mirrored Bruck all-to-all: blocks take the shorter way, +-2^k in phase k, floor(log2 n) phases",
                   &make_unique_default<AlltoallBridge>, {"mirror"},
                   "mirror=centred|halves (default centred; halves = the ReTri paper's variant, each flow halved)"});
  r.add_algorithm({"dex", {Collective::alltoall}, "static",
                   "hypercube dimension-exchange all-to-all (PCCL): log2 n steps, n/2 blocks to i xor 2^k",
                   &make_unique_default<AlltoallDex>, {}, "n a power of two"});
  r.add_algorithm({"retri", {Collective::alltoall}, "static",
                   "ReTri balanced-ternary all-to-all: ceil(log3 n) phases, +-3^k (any n; n = 3^s is the paper's)",
                   &make_unique_default<AlltoallRetri>});
  r.add_algorithm({"binary_tree", {Collective::broadcast}, "every_step",
                   "pipelined binary-tree broadcast of ceil(message/chunk) segments in depth + segments - 1 steps",
                   &make_unique_default<BroadcastBinaryTree>});

  // -- joint all-to-all synthesis (the all-to-all paper) and its baselines --
  r.add_joint_algorithm("rdc", "ReconfigureDuringCollective: shifted rings (k = 1) or Circulant/GenKautz + contraction (k > 1), d chosen for alpha_r",
                        &make_unique_default<Rdc>, Rdc::parameters(), Rdc::usage());
  r.add_joint_algorithm("static_ring", "the paper's Fig. 4: the directed n-cycle, flows grouped by hop count (d = 1)",
                        &make_unique_default<StaticRingBaseline>);
  r.add_joint_algorithm("pairwise", "the paper's Fig. 5: every flow on a direct circuit, k offsets per topology",
                        &make_unique_default<PairwiseBaseline>);
  r.add_joint_algorithm("fast", "FAST: Birkhoff-von Neumann decomposition into permutations on direct circuits, k per topology",
                        &make_unique_default<FastBaseline>, FastBaseline::parameters(), FastBaseline::usage());
  r.add_joint_algorithm("mixnet", "MixNet: one greedy topology from the traffic matrix (heaviest pairs first), shortest paths (d = 1)",
                        &make_unique_default<MixnetBaseline>);
  r.add_joint_algorithm("directconnect", "DirectConnect: static Generalized Kautz or Circulant, max-concurrent-flow routing, one concurrent round (d = 1)",
                        &make_unique_default<DirectconnectBaseline>, DirectconnectBaseline::parameters(), DirectconnectBaseline::usage());
  r.add_joint_algorithm("topoopt", "TopoOpt: union of k shifted rings, each flow split over its K shortest paths, one concurrent round (d = 1)",
                        &make_unique_default<TopooptBaseline>, TopooptBaseline::parameters(), TopooptBaseline::usage());

  r.add_planner({"joint", "the joint synthesizers' strategies: d from synthesis.reconfigurations or the lowest predicted time",
                 &make_unique_default<JointPlanner>, JointPlanner::parameters(), JointPlanner::usage()});
  r.add_planner({"static", "every step on one topology (synthesis.static_topology or synthesis.topology)",
                 &make_unique_default<StaticPlanner>});
  r.add_planner({"every_step", "each step on its own circuits, split when over the port limit",
                 &make_unique_default<EveryStepPlanner>});
  r.add_planner({"harvest", "Harvest DP over step ranges (Eq. 4/5, Alg. 1): alpha + delta*l + beta*m/theta per step + alpha_r per change; Eq. 8 for recursive doubling",
                 &make_unique_default<HarvestPlanner>, HarvestPlanner::parameters(), HarvestPlanner::usage()});
  r.add_planner({"pccl", "PCCL Algorithm 1 (exact DP): per round keep, own circuits or a standard topology; alpha*dilation + beta*congestion*w + r",
                 &make_unique_default<PcclPlanner>, {"standard", "w"},
                 "standard=[ring, torus, grid, torus3d, grid3d, hypercube, torus:AxB[xC], ...] (default: those that fit), w=edge_bytes|max_transfer (default edge_bytes)"});
  r.add_planner({"retri_segments",
                 "ReTri section 3.4: R reconfigurations into balanced segments of subrings, R* by prediction",
                 [] { return std::make_unique<SegmentsPlanner>(3); }, {"reconfigurations"},
                 "reconfigurations=R (default: the best R in 0..phases-1)"});
  r.add_planner({"bridge_segments", "the same placement for mirrored Bruck (Bridge): subrings of stride 2^k",
                 [] { return std::make_unique<SegmentsPlanner>(2); }, {"reconfigurations"},
                 "reconfigurations=R (default: the best R in 0..phases-1)"});
  r.add_planner({"exhaustive", "test oracle: every assignment of candidate topologies to steps",
                 &make_unique_default<ExhaustivePlanner>, {"candidates", "limit"},
                 "candidates=[ring, torus, grid, hypercube, step] (default), limit=2000000"});
  return r;
}

}  // namespace photonsim
