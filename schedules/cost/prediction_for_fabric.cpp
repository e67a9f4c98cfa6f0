#include "schedules/cost/prediction_for_fabric.h"

#include <cmath>
#include <string>

#include "core/error.h"
#include "core/spec/planning_failures.h"
#include "schedules/cost/alpha_beta_congestion_model.h"
#include "schedules/cost/harvest/harvest_coefficients.h"
#include "schedules/cost/harvest/harvest_flow_cache.h"
#include "schedules/cost/harvest/harvest_route_choice.h"
#include "schedules/cost/harvest/harvest_step_demand.h"
#include "schedules/cost/pccl_round_cost.h"
#include "topology/shortest_path_router.h"

namespace photonsim {

namespace {

const Topology& topology_of(const Schedule& schedule, size_t step) {
  return schedule.topologies()[static_cast<size_t>(schedule.steps()[step].topology)];
}

Time rounded_ps(double ps) { return Time::from_picoseconds(ps); }

// Reconfiguration and start-up as every model charges them: alpha_r where
// the schedule changes the circuits, alpha once per step.
StepPrediction charged(const Schedule& schedule, size_t step, const FabricSpec& fabric) {
  StepPrediction p;
  p.reconfiguration = schedule.reconfigures_before(step) ? fabric.reconfig_delay : Time::zero();
  p.startup = fabric.step_overhead;
  return p;
}

Prediction predict_pccl(const Schedule& schedule, const FabricSpec& fabric, LoadModel model) {
  Prediction prediction;
  prediction.model = pccl_model_name(model);
  for (size_t s = 0; s < schedule.steps().size(); ++s) {
    const std::optional<RoundCost> cost =
        communication_cost(topology_of(schedule, s), schedule.steps()[s].transfers, s, fabric, model);
    if (!cost) {
      throw Error("step " + std::to_string(s) + ": the pccl model cannot route the step on topology '" +
                  topology_of(schedule, s).name() + "'");
    }
    StepPrediction p = charged(schedule, s, fabric);
    p.propagation = cost->propagation;
    p.transmission = cost->transmission;
    prediction.steps.push_back(p);
  }
  return prediction;
}

Prediction predict_harvest(const Schedule& schedule, const FabricSpec& fabric, const WorkloadSpec& workload,
                           HarvestCost cost) {
  const HarvestCoefficients c = HarvestCoefficients::of(fabric, workload, cost);
  HarvestFlowCache cache;
  Prediction prediction;
  prediction.model = harvest_model_name(cost, false);
  for (size_t s = 0; s < schedule.steps().size(); ++s) {
    const HarvestStepDemand demand(schedule.gpus(), schedule.steps()[s].transfers);
    StepPrediction p = charged(schedule, s, fabric);
    if (!demand.moves_no_bytes()) {
      const HarvestFlowCache::Flow& flow = cache.flow(topology_of(schedule, s), demand);
      const HarvestRouteChoice routes = choose_harvest_routes(c, demand, flow);
      const auto terms = c.terms(static_cast<double>(demand.unit_bytes()), routes.inverse_theta, routes.hops,
                                 static_cast<double>(demand.max_pair_bytes()));
      p.propagation = rounded_ps(terms.propagation_ps);
      p.transmission = rounded_ps(terms.transmission_ps);
    }
    prediction.steps.push_back(p);
  }
  return prediction;
}

// Eq. 8's step cost on a shifted ring: every transfer of the step goes the
// same number of hops h, each circuit carries h of them: delta h + beta m h.
Prediction predict_harvest_eq8(const Schedule& schedule, const FabricSpec& fabric) {
  const HarvestCoefficients c = HarvestCoefficients::of(fabric);
  Prediction prediction;
  prediction.model = "harvest_eq8";
  for (size_t s = 0; s < schedule.steps().size(); ++s) {
    const ShortestPathRouter router(topology_of(schedule, s));
    int64_t hops = 0;
    Bytes bytes;
    for (const Transfer& t : schedule.steps()[s].transfers) {
      const int h = router.hops(t.src, t.dst);
      if (h < 0) {
        throw Error("step " + std::to_string(s) + ": the harvest_eq8 model cannot route " + std::to_string(t.src) +
                    "->" + std::to_string(t.dst) + " on topology '" + topology_of(schedule, s).name() + "'");
      }
      hops = std::max<int64_t>(hops, h);
      bytes = std::max(bytes, t.bytes);
    }
    StepPrediction p = charged(schedule, s, fabric);
    p.propagation = fabric.latency * hops;
    p.transmission = rounded_ps(c.beta_ps_per_byte * static_cast<double>(bytes.count()) * static_cast<double>(hops));
    prediction.steps.push_back(p);
  }
  return prediction;
}

}  // namespace

const char* known_prediction_models() {
  return "alpha_beta_congestion, pccl, pccl_max_transfer, harvest, harvest_eq8, harvest_overlapped";
}

Prediction predict_for_fabric(const Schedule& schedule, const FabricSpec& configured, const WorkloadSpec& workload) {
  // As the synthesizers predict: on the switches that survive the failures known when planning.
  const FabricSpec fabric = planning_fabric(configured);
  const std::string& model = schedule.prediction().model;
  if (model == "pccl") return predict_pccl(schedule, fabric, LoadModel::edge_bytes);
  if (model == "pccl_max_transfer") return predict_pccl(schedule, fabric, LoadModel::max_transfer);
  if (model == "harvest") return predict_harvest(schedule, fabric, workload, HarvestCost::paper);
  if (model == "harvest_overlapped") return predict_harvest(schedule, fabric, workload, HarvestCost::overlapped);
  if (model == "harvest_eq8") return predict_harvest_eq8(schedule, fabric);
  return predict_alpha_beta_congestion(schedule, fabric, workload);
}

}  // namespace photonsim
