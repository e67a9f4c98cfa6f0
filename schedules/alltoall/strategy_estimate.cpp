#include "schedules/alltoall/strategy_estimate.h"

#include <algorithm>

#include "schedules/cost/alpha_beta_congestion_model.h"

namespace photonsim {

StrategyEstimate estimate_strategy(const StrategyOutline& outline, const StrategyScheduleInput& input,
                                   bool with_names) {
  StrategyEstimate estimate;
  const bool waves = runs_in_chunk_waves(input, outline.contention_free_rounds, true);  // outlined flows are equal
  const int64_t chunk = input.workload.chunk.count();
  size_t step = 0;
  int previous = -1;
  for (const RoundOutline& round : outline.rounds) {
    const int64_t waves_in_round = waves ? std::max<int64_t>(1, (round.bytes.count() + chunk - 1) / chunk) : 1;
    for (int64_t wave = 0; wave < waves_in_round; ++wave, ++step) {
      const Bytes bytes = waves ? Bytes(std::min(chunk, round.bytes.count() - wave * chunk)) : round.bytes;
      bool reconfigures = round.topology != previous;
      bool is_initial = false;
      if (reconfigures && input.initial && (step == 0 || with_names)) {
        is_initial = *input.initial == outline.topology(round.topology);
        if (step == 0) reconfigures = !is_initial;
      }
      if (reconfigures) {
        ++estimate.reconfigurations;
        estimate.predicted += input.fabric.reconfig_delay;
        if (with_names) {
          estimate.reconfigure_before.emplace_back(
              step, is_initial ? input.initial->name() : outline.topology_name(round.topology));
        }
      }
      previous = round.topology;
      estimate.predicted += predict_alpha_beta_congestion_uniform_step(
                                bytes, round.hops, round.transfers_on_busiest_circuit, input.fabric, input.workload)
                                .total();
    }
  }
  return estimate;
}

}  // namespace photonsim
