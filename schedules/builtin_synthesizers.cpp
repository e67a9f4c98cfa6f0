// The built-in algorithms and planners: one add line each. Each states its
// name, collectives, parameters and supported sizes in its own file (info(),
// supports()); `photonsim list` and the every-n verifier test read them from here.
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
#include "schedules/algorithms/msccl_algorithm.h"
#include "schedules/alltoall/baselines/directconnect_baseline.h"
#include "schedules/planners/every_step_planner.h"
#include "schedules/alltoall/baselines/fast_baseline.h"
#include "schedules/alltoall/baselines/mixnet_baseline.h"
#include "schedules/alltoall/baselines/pairwise_baseline.h"
#include "schedules/alltoall/rdc/rdc.h"
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
#include "schedules/synthesis/point_to_point_synthesizer.h"
#include "schedules/synthesizer_registry.h"

namespace photonsim {

SynthesizerRegistry SynthesizerRegistry::with_builtins() {
  SynthesizerRegistry r;
  r.add_algorithm<AlltoallDirect>();
  r.add_algorithm<AllreduceRing>();
  r.add_algorithm<BroadcastBinomial>();
  // -- AllReduce / reduce-scatter / all-gather algorithms --
  r.add_algorithm<RecursiveDoubling>();
  r.add_algorithm<RecursiveDoublingFull>();
  r.add_algorithm<Rhd>();
  r.add_algorithm<Swing>();
  r.add_algorithm<Bine>();
  r.add_algorithm<Bucket>();
  r.add_algorithm<BruckConcat>();
  // -- all-to-all and broadcast algorithms --
  r.add_algorithm<AlltoallBruck>();
  r.add_algorithm<AlltoallBridge>();
  r.add_algorithm<AlltoallDex>();
  r.add_algorithm<AlltoallRetri>();
  r.add_algorithm<BroadcastBinaryTree>();
  // -- imported algorithms --
  r.add_algorithm<MscclAlgorithm>();
  // -- joint all-to-all synthesis (the all-to-all paper) and its baselines --
  r.add_algorithm<Rdc>();
  r.add_algorithm<StaticRingBaseline>();
  r.add_algorithm<PairwiseBaseline>();
  r.add_algorithm<FastBaseline>();
  r.add_algorithm<MixnetBaseline>();
  r.add_algorithm<DirectconnectBaseline>();
  r.add_algorithm<TopooptBaseline>();

  r.add_planner<StaticPlanner>();
  r.add_planner<EveryStepPlanner>();
  r.add_planner<HarvestPlanner>();
  r.add_planner<PcclPlanner>();
  r.add_planner<SegmentsPlanner>(3);  // retri_segments
  r.add_planner<SegmentsPlanner>(2);  // bridge_segments
  r.add_planner<ExhaustivePlanner>();
  r.set_point_to_point<PointToPointSynthesizer>();
  return r;
}

}  // namespace photonsim
