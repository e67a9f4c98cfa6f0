#include "sim/engine/fidelity.h"

#include "core/error.h"

namespace photonsim {

const char* to_string(Fidelity fidelity) { return name_of(kFidelityNames, fidelity); }

Fidelity parse_fidelity(const std::string& name) {
  if (const std::optional<Fidelity> f = value_named(kFidelityNames, name)) return *f;
  throw Error("--fidelity: unknown fidelity '" + name.substr(0, 80) + "' (valid: " + names_of(kFidelityNames) + ")");
}

RunResult analytical_result(const Schedule& schedule, const FailureSpec& failures) {
  RunResult result;
  std::vector<Time> extra(schedule.steps().size(), Time::zero());
  for (size_t e = 0; e < failures.entries.size(); ++e) {
    const Failure& f = failures.entries[e];
    if (f.kind != FailureKind::reconfiguration) continue;
    FailureCost cost = no_cost_yet(e, FailureKind::reconfiguration);
    if (static_cast<size_t>(f.step) < extra.size()) {
      extra[static_cast<size_t>(f.step)] += f.extra_delay;
      cost.commands = 1;
      cost.extra_dark = f.extra_delay;
    }
    result.failures.push_back(cost);
  }
  Time now;
  for (size_t i = 0; i < schedule.steps().size(); ++i) {
    const StepPrediction& p = schedule.prediction().steps.at(i);
    StepResult step;
    step.begin = now;
    step.reconfiguration = p.reconfiguration + extra[i];
    step.startup = p.startup;
    step.end = now + p.total() + extra[i];
    for (const Transfer& t : schedule.steps()[i].transfers) {
      ++step.transfers;
      step.bytes += t.bytes.count();
    }
    if (p.reconfiguration > Time::zero()) {
      ++result.reconfigurations;
      result.reconfiguration_time += p.reconfiguration;
    }
    result.network.bytes_injected += step.bytes;
    result.network.bytes_delivered += step.bytes;
    now = step.end;
    result.steps.push_back(step);
  }
  result.completion = now;
  // What the plan routed around (an mzi, a switch down at 0) is listed as at packet fidelity, nothing lost.
  add_lost_circuit_costs(failures, result.network, result.failures);
  return result;
}

}  // namespace photonsim
