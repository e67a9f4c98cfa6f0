#pragma once
// Contract: PCCL's communication cost of one round on one topology (its
// Algorithm 2, no startup, no reconfiguration): latency x dilation plus the
// serialisation of the busiest circuit's load. The load is the busiest
// circuit's routed bytes (edge_bytes, photonsim's default), or the paper's
// congestion x largest transfer (max_transfer). Empty when the topology
// cannot route a pair of the round. Shared by the PCCL planner and by
// re-prediction of a saved schedule, so both give the same figure. Under
// fabric.bandwidth_scope gpu each circuit's load is serialised at its own
// rate (topology/circuit_rates.h) and the slowest to drain sets the round.
#include <cstddef>
#include <optional>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "schedules/model/transfer.h"
#include "topology/topology.h"

namespace photonsim {

enum class LoadModel { edge_bytes, max_transfer };

// The Prediction::model name of PCCL's cost with this load model:
// "pccl" (edge_bytes) or "pccl_max_transfer".
const char* pccl_model_name(LoadModel model);

struct RoundCost {
  Time propagation;
  Time transmission;
  Time total() const { return propagation + transmission; }
};

// `index` names the round in routing errors.
std::optional<RoundCost> communication_cost(const Topology& topology, const std::vector<Transfer>& round, size_t index,
                                            const FabricSpec& fabric, LoadModel model);

}  // namespace photonsim
