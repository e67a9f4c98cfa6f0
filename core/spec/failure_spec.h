#pragma once
// Contract: what breaks in a fabric, as read from the YAML (`fabric.failures`,
// `fabric.random_failures`, `fabric.failure_detection`, `fabric.on_failure`;
// issue 55). Plain values; the config loader guarantees the invariants noted
// per field (sim/config/failure_reader.cpp). The default - no entries and no
// random failures - is a healthy fabric and changes nothing. What a run does
// with a failure is the engine's (docs/model.md, "Failures"); until an engine
// simulates them, a run refuses a config with any (any()).
#include <cstdint>
#include <optional>
#include <vector>

#include "core/enum_names.h"
#include "core/time.h"
#include "core/units.h"

namespace photonsim {

// What an entry of fabric.failures breaks.
enum class FailureKind {
  port,             // a transceiver down: GPU `gpu`'s port `port`
  optical_switch,   // YAML `switch`: optical switch `optical_switch` and every circuit through it
  link,             // a port degraded to `bandwidth`, not down
  flap,             // a port down for `duration`, back by itself
  reconfiguration,  // the reconfiguration before step `step` takes `extra_delay` longer
  mzi,              // with fabric.physical: MZI (`row`, `col`) of server `server`'s mesh failed
  straggler,        // GPU `gpu` computes `slowdown` times slower
};

// What a run does when a failure strikes during it.
enum class FailurePolicy { replan, wait, static_fallback, abort_restart };

inline constexpr EnumName<FailureKind> kFailureKindNames[] = {{FailureKind::port, "port"},
                                                              {FailureKind::optical_switch, "switch"},
                                                              {FailureKind::link, "link"},
                                                              {FailureKind::flap, "flap"},
                                                              {FailureKind::reconfiguration, "reconfiguration"},
                                                              {FailureKind::mzi, "mzi"},
                                                              {FailureKind::straggler, "straggler"}};
inline constexpr EnumName<FailurePolicy> kFailurePolicyNames[] = {{FailurePolicy::replan, "replan"},
                                                                  {FailurePolicy::wait, "wait"},
                                                                  {FailurePolicy::static_fallback, "static_fallback"},
                                                                  {FailurePolicy::abort_restart, "abort_restart"}};

// One entry of fabric.failures; only the fields of its kind are meaningful
// (the loader refuses the keys of other kinds).
struct Failure {
  FailureKind kind = FailureKind::port;
  int gpu = 0;             // port, link, flap, straggler: 0 .. fabric.gpus-1
  int port = 0;            // port, link, flap: 0 .. fabric.ports-1
  int optical_switch = 0;  // switch: 0 .. fabric.ports-1 (port p of every GPU is on switch p)
  Time at;                 // port, switch, link, flap: when it starts, >= 0
  // port, switch, link, flap (`for`): how long it lasts, > 0; none = until
  // the run ends (a flap always has one). at + duration fits in a Time.
  std::optional<Time> duration;
  Bandwidth bandwidth;    // link: the degraded rate, 0 < bandwidth <= a port's rate
  int step = 0;           // reconfiguration: the step whose reconfiguration is slow, >= 0
  Time extra_delay;       // reconfiguration: added dark time, >= 0
  int server = 0;         // mzi: 0 .. fabric.physical.servers.count()-1 (row-major)
  int row = 0;            // mzi: 0 .. fabric.physical.mesh.rows-1
  int col = 0;            // mzi: 0 .. fabric.physical.mesh.cols-1
  double slowdown = 1.0;  // straggler: >= 1, its compute nodes take this many times longer

  // The end of [at, end()): at + duration, or Time::max() when it lasts to the end.
  Time end() const { return duration ? at + *duration : Time::max(); }
};

// fabric.random_failures: failures drawn per run from per-port rates. A mean
// time between failures spans years, past the ~106 days a Time holds: seconds.
struct RandomFailures {
  // Alibaba HPN (SIGCOMM 2024): 0.057 % of NIC-ToR links fail per month,
  // 730.5 h / 0.00057 = 1.28e6 h per link.
  double port_mtbf_s = 1300000.0 * 3600.0;  // > 0
  // None: no flaps are drawn (no published per-port flap rate is taken as a default).
  std::optional<double> flap_mtbf_s;  // > 0
  // How long a failed port stays down (the time to replace a transceiver, or
  // its host): no published figure is taken as a default, so a study that
  // draws port failures needs it (photonsim availability).
  std::optional<Time> port_repair;  // > 0
  // How long a drawn flap lasts; needed with flap_mtbf (no published default).
  std::optional<Time> flap_duration;  // > 0
  std::optional<uint64_t> seed;       // none: the experiment's seed
};

struct FailureSpec {
  std::vector<Failure> entries;  // fabric.failures, in the file's order
  std::optional<RandomFailures> random;
  // How long after a circuit dies its sender learns of it: by default the SFP
  // MSA's largest LOS assert time (INF-8074i, t_loss_on <= 100 us).
  Time detection = Time::us(100);
  FailurePolicy on_failure = FailurePolicy::replan;
  // abort_restart: the job stops once the watchdog's timeout passes
  // (PyTorch's ProcessGroupNCCL default, kProcessGroupNCCLDefaultTimeout:
  // 10 minutes), then restarts from its last checkpoint, which takes
  // restart_time (required with abort_restart: no published figure is taken
  // as a default).
  Time watchdog_timeout = Time::ms(10 * 60 * 1000);
  std::optional<Time> restart_time;
  // abort_restart: how often the job writes a checkpoint, so what a restart
  // loses (the work since the last one); a study of abort_restart needs it
  // (no published figure is taken as a default).
  std::optional<Time> checkpoint_interval;

  // Whether the fabric fails at all: entries, or random failures asked for.
  bool any() const { return !entries.empty() || random.has_value(); }
};

const char* to_string(FailureKind kind);
const char* to_string(FailurePolicy policy);

// Whether an entry of this kind takes circuits down: port, flap and switch
// (docs/model.md, "Lost circuits", L1). A link entry degrades them instead.
bool takes_circuits_down(FailureKind kind);

}  // namespace photonsim
