#pragma once
// Contract: what the schedule fuzzer does with one input, shared by the
// libFuzzer harness (tests/fuzz/fuzz_schedule.cpp) and the corpus replay in
// the test suite (tests/sim/fuzz_corpus_test.cpp). The first byte picks the
// format (even: binary, odd: text) and the fabric of the replay; the rest is
// the schedule. Returns normally or throws photonsim::Error; anything else
// (another exception, a trap, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "schedules/verify/block_verifier.h"
#include "schedules/model/schedule_io.h"
#include "sim/app/experiment_runner.h"

namespace photonsim_fuzz {

// The fabric a fuzzed schedule is replayed on: its own GPU count or one more,
// 1-3 ports, either circuit kind and router, all three fidelities.
inline photonsim::ExperimentConfig replay_config(uint8_t pick, int gpus) {
  photonsim::ExperimentConfig config;
  config.source = "fuzz.yaml";
  photonsim::FabricSpec& f = config.fabric;
  f.gpus = (pick & 0x02) != 0 ? gpus + 1 : gpus;
  f.ports = 1 + ((pick >> 2) & 0x03) % 3;
  f.circuits = (pick & 0x10) != 0 ? photonsim::CircuitKind::bidirectional : photonsim::CircuitKind::directed;
  f.router = (pick & 0x20) != 0 ? photonsim::RouterMode::cut_through : photonsim::RouterMode::store_and_forward;
  f.bandwidth = photonsim::Bandwidth::bits_per_second(100'000'000'000);
  f.latency = photonsim::Time::ns(500);
  f.reconfig_delay = photonsim::Time::us(1);
  config.workload.collective = photonsim::Collective::alltoall;
  config.workload.message = photonsim::Bytes(1000);
  return config;
}

inline photonsim::Fidelity replay_fidelity(uint8_t pick) {
  switch ((pick >> 6) & 0x03) {
    case 0:
      return photonsim::Fidelity::analytical;
    case 1:
      return photonsim::Fidelity::packet;
    default:
      return photonsim::Fidelity::chunk;
  }
}

// Small enough to replay within the harness's time limit.
inline bool small_enough_to_replay(const photonsim::Schedule& schedule) {
  if (schedule.gpus() > 64 || schedule.steps().size() > 64) return false;
  size_t transfers = 0;
  for (const photonsim::Step& step : schedule.steps()) {
    transfers += step.transfers.size();
    for (const photonsim::Transfer& t : step.transfers) {
      if (t.bytes.count() > (int64_t{1} << 30)) return false;
    }
  }
  return transfers <= 4096;
}

inline void exercise_schedule_input(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const bool text_format = (data[0] & 1U) != 0;
  const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  const photonsim::Schedule schedule = photonsim::parse_schedule(bytes, text_format, "fuzz.pb");
  if (schedule.gpus() <= 4096 && schedule.blocks() <= (1U << 20)) photonsim::verify_schedule(schedule);
  const photonsim::Schedule again =
      photonsim::parse_schedule(photonsim::serialize_schedule(schedule, false), false, "again.pb");
  if (again.steps().size() != schedule.steps().size()) __builtin_trap();
  if (small_enough_to_replay(schedule)) {
    // With packet = chunk = whole a transfer is one packet: the replay stays
    // within transfers x hops events.
    photonsim::ExperimentConfig config = replay_config(data[0], schedule.gpus());
    photonsim::replay_schedule(schedule, config, replay_fidelity(data[0]));
    if (replay_fidelity(data[0]) == photonsim::Fidelity::packet) {
      // The dataflow engine (ScheduleExecution) on the same input, partial
      // reconfiguration with it: an Error or a result, never a broken invariant.
      config.fabric.sync = photonsim::SyncMode::dataflow;
      config.fabric.reconfiguration =
          (data[0] & 0x04) != 0 ? photonsim::ReconfigurationScope::changed : photonsim::ReconfigurationScope::all;
      photonsim::replay_schedule(schedule, config, photonsim::Fidelity::packet);
    }
  }
}

}  // namespace photonsim_fuzz
