#include "sim/app/memory_estimate.h"

#include "schedules/alltoall/rdc/rdc.h"

namespace photonsim {

namespace {

bool rdc_builds_genkautz(const ExperimentConfig& config) {
  const auto& params = config.synthesis.algorithm_params;
  const auto base = params.find("base");
  const std::string name = base == params.end() ? "auto" : base->second;
  return name == "genkautz" || (name == "auto" && config.fabric.gpus <= Rdc::kGenKautzAutoLimit);
}

}  // namespace

MemoryEstimate estimate_run_memory(const ExperimentConfig& config) {
  const auto n = static_cast<long double>(config.fabric.gpus);
  const std::string gpus = "fabric.gpus (" + std::to_string(config.fabric.gpus) + " GPUs";
  const auto clamp = [](long double bytes) { return bytes > 1.8e19L ? UINT64_MAX : static_cast<uint64_t>(bytes); };
  if (config.workload.collective == Collective::alltoall) {
    // rdc with k = 1 holds one d at a time with implicit routes (shifted
    // rings), and with k > 1 the Circulant family goes one d at a time too:
    // the n(n-1) flows, like every other all-to-all. The Generalized Kautz
    // family also keeps per pair its best topology and the candidate paths
    // it has drawn (126 MB at n = 256).
    if (config.synthesis.algorithm == "rdc" && config.fabric.ports > 1 && rdc_builds_genkautz(config)) {
      return {clamp(2000 * n * (n - 1)),
              gpus + ", synthesis.algorithm rdc with the Generalized Kautz family: candidate paths per pair)"};
    }
    if (config.synthesis.algorithm == "fast") {
      // The BvN decomposition and its matcher (rows sorted by value, bitsets)
      // beside the flows: about 1.5 KB per pair, 1559 MiB at n = 1024.
      return {clamp(1600 * n * (n - 1)), gpus + ", synthesis.algorithm fast: BvN terms of n(n-1) flows)"};
    }
    return {clamp(300 * n * (n - 1)), gpus + " in an all-to-all of n(n-1) flows)"};
  }
  return {clamp(4096 * n), gpus + ")"};
}

}  // namespace photonsim
