#include "sim/engine/fidelity.h"

#include "core/error.h"

namespace photonsim {

const char* to_string(Fidelity fidelity) { return name_of(kFidelityNames, fidelity); }

Fidelity parse_fidelity(const std::string& name) {
  if (const std::optional<Fidelity> f = value_named(kFidelityNames, name)) return *f;
  throw Error("--fidelity: unknown fidelity '" + name.substr(0, 80) + "' (valid: " + names_of(kFidelityNames) + ")");
}

RunResult analytical_result(const Schedule& schedule) {
  RunResult result;
  Time now;
  for (size_t i = 0; i < schedule.steps().size(); ++i) {
    const StepPrediction& p = schedule.prediction().steps.at(i);
    StepResult step;
    step.begin = now;
    step.reconfiguration = p.reconfiguration;
    step.startup = p.startup;
    step.end = now + p.total();
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
  return result;
}

}  // namespace photonsim
