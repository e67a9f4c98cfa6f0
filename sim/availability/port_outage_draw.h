#pragma once
// Contract: the port failures and flaps a stretch of training draws from
// fabric.random_failures' rates (issue 55, item 5; docs/model.md, "A month
// of training"). Every port of every GPU fails as a Poisson process of rate
// 1 / port_mtbf and stays down for port_repair; it flaps likewise at rate
// 1 / flap_mtbf (when given) for flap_duration. A port that is down does not
// fail or flap again until it is back. Deterministic: the same rates, fabric,
// horizon and seed give the same outages on every machine (the draws are
// this file's own transform of std::mt19937_64's output, never a library
// distribution, whose algorithm the standard leaves open).
#include <cstdint>
#include <vector>

#include "core/spec/failure_spec.h"
#include "core/time.h"

namespace photonsim {

struct PortOutage {
  Time start;  // the port is down over [start, end)
  Time end;    // may pass the horizon
  int gpu = 0;
  int port = 0;
  bool flap = false;  // back by itself after flap_duration; otherwise repaired after port_repair
};

// The outages starting in [0, horizon), by start (a port failure before a flap
// at the same picosecond). Needs rates.port_repair, and flap_duration
// when flap_mtbf is given (the study checks both first).
std::vector<PortOutage> draw_port_outages(const RandomFailures& rates, int gpus, int ports, Time horizon,
                                          uint64_t seed);

}  // namespace photonsim
