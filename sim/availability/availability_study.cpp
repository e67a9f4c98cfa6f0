// photonsim availability's study: outages drawn per seed, each fabric state's
// iteration simulated once, every policy replayed (availability_study.h).
#include "sim/availability/availability_study.h"

#include <chrono>
#include <map>
#include <string>
#include <utility>

#include "core/error.h"
#include "sim/availability/port_outage_draw.h"

namespace photonsim {
namespace {

constexpr int kMaxDays = 106;  // a Time holds about 106.75 days

// "exp.yaml:12: " where `key` was written, or "CONFIG: " when it was not.
std::string at_key(const ExperimentConfig& config, const std::string& key, const std::string& fallback) {
  for (const std::string& k : {key, std::string("fabric")}) {
    const auto it = config.key_locations.find(k);
    if (it != config.key_locations.end()) return it->second + ": ";
  }
  return fallback + ": ";
}

std::string switches_text(const std::vector<int>& switches) {
  std::string out;
  for (int s : switches) out += (out.empty() ? "" : ", ") + std::to_string(s);
  return (switches.size() == 1 ? "switch " : "switches ") + out;
}

// The config with `lost` switches failed from the start (so every planner
// plans without them, docs/model.md "Failures known when planning") and, for
// static_fallback, one static topology; nothing drawn, nothing lost mid-run.
ExperimentConfig state_config(const ExperimentConfig& config, IterationPlan plan, const std::vector<int>& lost) {
  ExperimentConfig state = config;
  FailureSpec& failures = state.fabric.failures;
  failures.random.reset();
  failures.on_failure = FailurePolicy::wait;
  for (int s : lost) {
    bool already = false;
    for (const Failure& f : failures.entries)
      already = already || (f.kind == FailureKind::optical_switch && f.optical_switch == s && f.at == Time::zero());
    if (already) continue;
    Failure f;
    f.kind = FailureKind::optical_switch;
    f.optical_switch = s;
    failures.entries.push_back(f);
    state.failure_locations.push_back("photonsim availability (a port of switch " + std::to_string(s) + " down)");
  }
  if (plan == IterationPlan::static_fallback) {
    state.synthesis.planner = "static";
    state.synthesis.planner_params.clear();
  }
  return state;
}

}  // namespace

void check_availability_options(const AvailabilityOptions& options) {
  if (options.days < 1 || options.days > kMaxDays)
    throw Error("--days must be in 1.." + std::to_string(kMaxDays) + " (what a time holds; got " +
                std::to_string(options.days) + ")");
  if (options.seeds < 1) throw Error("--seeds must be at least 1 (got " + std::to_string(options.seeds) + ")");
}

AvailabilityStudy run_availability_study(const ExperimentPipeline& pipeline, const ExperimentConfig& config,
                                         const AvailabilityOptions& options) {
  const auto begin = std::chrono::steady_clock::now();
  const std::string config_at = config.inputs.empty() ? std::string("config") : config.inputs.front().path;
  const FailureSpec& spec = config.fabric.failures;
  check_availability_options(options);
  if (!spec.random)
    throw Error(at_key(config, "fabric", config_at) +
                "fabric.random_failures: photonsim availability draws the failures from its rates; add e.g. "
                "random_failures: {port_repair: 4h} to the fabric (port_mtbf defaults to 1300000h)");
  const std::string random_at = at_key(config, "fabric.random_failures", config_at);
  if (!spec.random->port_repair)
    throw Error(random_at +
                "fabric.random_failures.port_repair: photonsim availability needs how long a failed port stays "
                "down (no published figure is taken as a default), e.g. port_repair: 4h");
  if (spec.random->flap_mtbf_s && !spec.random->flap_duration)
    throw Error(random_at +
                "fabric.random_failures.flap_duration: flap_mtbf needs how long a drawn flap lasts (no published "
                "figure is taken as a default), e.g. flap_duration: 5us");
  std::vector<FailurePolicy> policies = options.policies;
  if (policies.empty()) policies.push_back(spec.on_failure);
  for (FailurePolicy p : policies) {
    if (p != FailurePolicy::abort_restart) continue;
    if (spec.on_failure != FailurePolicy::abort_restart || !spec.checkpoint_interval)
      throw Error(at_key(config, "fabric.on_failure", config_at) +
                  "fabric.on_failure: the abort_restart policy needs its times from the config: set "
                  "fabric.on_failure: {type: abort_restart, restart_time: T, checkpoint_interval: T} "
                  "(watchdog_timeout defaults to 10 min)");
  }

  AvailabilityStudy study;
  study.days = options.days;
  study.horizon = Time::ms(int64_t{86400} * 1000) * options.days;
  study.first_seed = spec.random->seed.value_or(config.seed);
  study.fidelity = options.fidelity;
  study.rates = *spec.random;
  study.detection = spec.detection;
  study.reconfiguration = config.fabric.reconfig_delay;
  study.watchdog_timeout = spec.watchdog_timeout;
  study.restart_time = spec.restart_time;
  study.checkpoint_interval = spec.checkpoint_interval;
  study.gpus = config.fabric.gpus;
  study.ports = config.fabric.ports;
  study.graph = config.graph.has_value();

  std::map<std::pair<IterationPlan, std::vector<int>>, size_t> simulated;
  const IterationTimes times = [&](IterationPlan plan, const std::vector<int>& lost) -> std::optional<Time> {
    const auto key = std::make_pair(plan, lost);
    if (const auto it = simulated.find(key); it != simulated.end()) return study.states[it->second].iteration;
    SimulatedState state{plan, lost, std::nullopt, 0};
    const auto start = std::chrono::steady_clock::now();
    if (static_cast<int>(lost.size()) < config.fabric.ports) {
      const ExperimentConfig run = state_config(config, plan, lost);
      try {
        state.iteration = config.graph.has_value() ? pipeline.run_graph(run, options.fidelity).result.iteration
                                                   : pipeline.run(run, options.fidelity).result.completion;
      } catch (const Error& e) {
        if (lost.empty()) throw;
        throw Error(std::string("photonsim availability: the iteration planned without ") + switches_text(lost) +
                    (plan == IterationPlan::static_fallback ? " on a static topology" : "") + ": " + e.what());
      }
    }
    state.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    study.states.push_back(state);
    simulated.emplace(key, study.states.size() - 1);
    return state.iteration;
  };
  study.healthy_iteration = *times(IterationPlan::configured, {});

  std::vector<std::vector<PortOutage>> outages;
  for (int i = 0; i < options.seeds; ++i) {
    outages.push_back(draw_port_outages(*spec.random, config.fabric.gpus, config.fabric.ports, study.horizon,
                                        study.first_seed + static_cast<uint64_t>(i)));
    study.outages_per_seed.push_back(static_cast<int>(outages.back().size()));
  }
  for (FailurePolicy policy : policies) {
    PolicyCosts costs{policy,
                      spec.detection,
                      config.fabric.reconfig_delay,
                      spec.watchdog_timeout,
                      spec.restart_time.value_or(Time::zero()),
                      spec.checkpoint_interval.value_or(Time::zero())};
    const TrainingTimeline timeline(times, costs, study.horizon);
    PolicyOutcomes outcome{policy, {}};
    for (const std::vector<PortOutage>& seed_outages : outages) outcome.seeds.push_back(timeline.run(seed_outages));
    study.policies.push_back(std::move(outcome));
  }
  study.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return study;
}

}  // namespace photonsim
