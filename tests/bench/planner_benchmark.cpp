// Planner and topology-solver run times (Google Benchmark), run by scripts/dev/bench:
// Harvest's recursive-doubling DP at n = 64 and 1024 (the paper reports < 20 us
// and < 35 us), PCCL's DP at 128 GPUs (the paper: < 1 s), general Harvest with
// LPs at n = 16 and 64, theta for uniform all-to-all on 64 GPUs of degree 4,
// the switch decomposition of a 1024-GPU degree-4 topology, and the all-to-all paper's rdc: every d at n = 64, k = 2 (both bases, target
// < 1 s), at n = 4096, k = 1 (target < 10 s), and the whole joint planner
// (strategies -> schedules -> predictions) at n = 64, k = 2.
#include <benchmark/benchmark.h>

#include "core/spec/flow_sizes.h"
#include "schedules/planners/harvest/harvest_recursive_doubling.h"
#include "schedules/alltoall/rdc/rdc.h"
#include "schedules/alltoall/ring_shift_search.h"
#include "schedules/synthesizer_registry.h"
#include "topology/flow/max_concurrent_flow.h"
#include "topology/switch_decomposition.h"
#include "topology/topology_registry.h"

namespace photonsim {
namespace {

FabricSpec fabric(int gpus, int ports, Bandwidth bandwidth, Time latency, Time reconfig) {
  FabricSpec f;
  f.gpus = gpus;
  f.ports = ports;
  f.bandwidth = bandwidth;
  f.latency = latency;
  f.reconfig_delay = reconfig;
  f.step_overhead = Time::ns(500);
  return f;
}

void BM_HarvestRecursiveDoublingDp(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const HarvestCoefficients c =
      HarvestCoefficients::of(fabric(n, 1, Bandwidth::bits_per_second(800'000'000'000), Time::ns(500), Time::us(1)));
  std::vector<HarvestRdStep> steps = harvest_rd_reduce_scatter(n, 1e9);
  const std::vector<HarvestRdStep> all_gather(steps.rbegin(), steps.rend());
  steps.insert(steps.end(), all_gather.begin(), all_gather.end());
  for (auto _ : state) benchmark::DoNotOptimize(harvest_recursive_doubling(steps, c, std::nullopt).cost_ps);
}
BENCHMARK(BM_HarvestRecursiveDoublingDp)->Arg(64)->Arg(1024)->Unit(benchmark::kMicrosecond);

Schedule plan(const std::string& algorithm, Collective collective, const std::string& planner, const FabricSpec& f,
              Bytes message, std::map<std::string, std::string> planner_params = {}) {
  WorkloadSpec w;
  w.collective = collective;
  w.message = message;
  SynthesisSpec s;
  s.algorithm = algorithm;
  s.planner = planner;
  s.planner_params = std::move(planner_params);
  s.topology.type = "ring";
  return SynthesizerRegistry::with_builtins().synthesize(f, w, s);
}

void BM_PcclRhdReduceScatter128(benchmark::State& state) {
  // PCCL section 5: alpha = 3 us, 450 GB/s, 1 GB, r = 5 us (arg 0) or 1 ms (arg 1).
  const Time r = state.range(0) == 0 ? Time::us(5) : Time::ms(1);
  const FabricSpec f = fabric(128, 6, Bandwidth::bits_per_second(3'600'000'000'000), Time::us(3), r);
  for (auto _ : state)
    benchmark::DoNotOptimize(plan("rhd", Collective::reducescatter, "pccl", f, Bytes(1'000'000'000)));
}
BENCHMARK(BM_PcclRhdReduceScatter128)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_HarvestWithLps(benchmark::State& state) {
  // A fresh planner each iteration: every theta LP is solved again (cold cache).
  const int n = static_cast<int>(state.range(0));
  const FabricSpec f = fabric(n, 1, Bandwidth::bits_per_second(800'000'000'000), Time::ns(500), Time::us(1));
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        plan("recursive_doubling", Collective::allreduce, "harvest", f, Bytes(1 << 24), {{"closed_form", "false"}}));
  }
}
BENCHMARK(BM_HarvestWithLps)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_ThetaAlltoall64Degree4(benchmark::State& state) {
  FabricSpec f;
  f.gpus = 64;
  f.ports = 4;
  const char* type = state.range(0) == 0 ? "circulant" : "generalized_kautz";
  TopologySpec spec{type, {}};
  if (state.range(0) == 0) spec.params["generators"] = "[1, 2, 4, 8]";
  const Topology t = *TopologyRegistry::with_builtin_generators().make(spec, f);
  const DemandMatrix demand = DemandMatrix::alltoall(64);
  for (auto _ : state) benchmark::DoNotOptimize(max_concurrent_flow(t, demand).theta);
  state.SetLabel(type);
}
BENCHMARK(BM_ThetaAlltoall64Degree4)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1);

// Splitting a 1024-GPU 4-regular directed topology into 4 switch matchings
// (moved here from the unit tests, where a timing could not fail).
void BM_SwitchDecomposition1024Degree4(benchmark::State& state) {
  FabricSpec f;
  f.gpus = 1024;
  f.ports = 4;
  TopologySpec spec{"random_regular", {{"degree", "4"}}};
  const Topology t = *TopologyRegistry::with_builtin_generators().make(spec, f, 2024);
  for (auto _ : state) benchmark::DoNotOptimize(SwitchDecomposition::decompose(t, 4, CircuitKind::directed).switches());
}
BENCHMARK(BM_SwitchDecomposition1024Degree4)->Unit(benchmark::kMillisecond);

void BM_RdcEveryD(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int k = static_cast<int>(state.range(1));
  const FabricSpec f = fabric(n, k, Bandwidth::bits_per_second(800'000'000'000), Time::ns(500), Time::us(10));
  WorkloadSpec w;
  w.message = Bytes(32'000'000);
  const std::vector<Bytes> demand = alltoall_flow_sizes(w, n, 1);
  const ComponentParams params("rdc", {}, Rdc().info().parameters, "algorithm");
  const JointInput input{f, w, demand, params, 1};
  for (auto _ : state) {
    if (k == 1) {
      benchmark::DoNotOptimize(RingShiftSearch(n).hop_sum(n - 1));  // every d's shift set and hop sum
    } else {
      benchmark::DoNotOptimize(Rdc().strategies(input, std::nullopt).size());
    }
  }
}
BENCHMARK(BM_RdcEveryD)->Args({64, 2})->Args({64, 1})->Args({4096, 1})->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_JointPlannerRdc(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const FabricSpec f = fabric(n, static_cast<int>(state.range(1)), Bandwidth::bits_per_second(800'000'000'000),
                              Time::ns(500), Time::us(10));
  WorkloadSpec w;
  w.message = Bytes(32'000'000);
  w.chunk = Bytes(4'000'000);
  SynthesisSpec s;
  s.algorithm = "rdc";
  const SynthesizerRegistry registry = SynthesizerRegistry::with_builtins();
  for (auto _ : state) benchmark::DoNotOptimize(registry.synthesize(f, w, s).steps().size());
}
BENCHMARK(BM_JointPlannerRdc)->Args({64, 1})->Args({64, 2})->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace photonsim

BENCHMARK_MAIN();
