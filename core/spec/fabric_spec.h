#pragma once
// Contract: the validated physical parameters of one fabric (YAML `fabric.*`).
// Plain value; the config loader guarantees the invariants noted per field.
#include <cstdint>
#include <optional>
#include <map>
#include <string>

#include "core/enum_names.h"
#include "core/spec/failure_spec.h"
#include "core/spec/physical_spec.h"
#include "core/time.h"
#include "core/units.h"

namespace photonsim {

enum class CircuitKind { directed, bidirectional };
enum class RouterMode { cut_through, store_and_forward };
// Which waiting packet an idle egress port sends next (Network's contract).
enum class EgressOrder { chunk, fifo, chunk_fifo };
// When a transfer may start: after a global barrier per step (the papers'
// model), or as soon as its sender holds what it carries and its circuits are lit.
enum class SyncMode { barrier, dataflow };
// Which circuits go dark when the configuration changes: all of them, or only
// those that differ (ports whose circuit stays keep carrying traffic).
enum class ReconfigurationScope { all, changed };
// Task graphs: which waiting communication node takes a GPU first when a
// peer-to-peer send and a collective both want it (PCCL section 6: p2p first),
// or strictly by the time each became ready.
enum class CommunicationPriority { p2p, fifo };
// What fabric.bandwidth is: each circuit's line rate, or a GPU's whole
// bandwidth split over its `ports` transmitters, a configuration's circuits
// sharing them (PCCL sec. 4.2: "We divide the transmitters uniformly across
// all required connections by a GPU in a round").
enum class BandwidthScope { circuit, gpu };
// Which engine moves the packets (not a YAML key: --fidelity packet picks
// trains, packet_reference the packet-by-packet Network); both give the same
// times, packets and packet-hops (sim/engine/network/train_network.h).
enum class PacketEngine { trains, reference };

inline constexpr EnumName<CircuitKind> kCircuitKindNames[] = {{CircuitKind::directed, "directed"},
                                                              {CircuitKind::bidirectional, "bidirectional"}};
inline constexpr EnumName<RouterMode> kRouterModeNames[] = {{RouterMode::cut_through, "cut_through"},
                                                            {RouterMode::store_and_forward, "store_and_forward"}};
inline constexpr EnumName<EgressOrder> kEgressOrderNames[] = {
    {EgressOrder::chunk, "chunk"}, {EgressOrder::fifo, "fifo"}, {EgressOrder::chunk_fifo, "chunk_fifo"}};
inline constexpr EnumName<SyncMode> kSyncModeNames[] = {{SyncMode::barrier, "barrier"},
                                                        {SyncMode::dataflow, "dataflow"}};
inline constexpr EnumName<ReconfigurationScope> kReconfigurationScopeNames[] = {
    {ReconfigurationScope::all, "all"}, {ReconfigurationScope::changed, "changed"}};
inline constexpr EnumName<CommunicationPriority> kCommunicationPriorityNames[] = {
    {CommunicationPriority::p2p, "p2p"}, {CommunicationPriority::fifo, "fifo"}};
inline constexpr EnumName<BandwidthScope> kBandwidthScopeNames[] = {{BandwidthScope::circuit, "circuit"},
                                                                    {BandwidthScope::gpu, "gpu"}};

struct FabricSpec {
  int gpus = 0;   // >= 2
  int ports = 1;  // optical ports per GPU, >= 1
  CircuitKind circuits = CircuitKind::directed;
  Bandwidth bandwidth;  // per-circuit line rate, > 0 (scope gpu: per GPU, a multiple of ports bps)
  // gpu: a circuit gets bandwidth / ports per transmitter it holds (topology/circuit_rates.h).
  BandwidthScope bandwidth_scope = BandwidthScope::circuit;
  Time latency;  // per-hop propagation, >= 0
  RouterMode router = RouterMode::store_and_forward;
  Bytes packet;  // forwarding unit; 0 = one packet per chunk
  Bytes header;  // cut-through forwards once this much has arrived
  // chunk_fifo: the all-to-all paper's htsim queues (issue 34: its cost model
  // predicts this order; chunk leaves own packets for a round's end).
  EgressOrder egress_order = EgressOrder::chunk_fifo;
  Time reconfig_delay;  // alpha_r, >= 0
  // How long a switch command is dark, by name (the engine's
  // reconfiguration models; "constant": reconfig_delay, the papers' model).
  std::string reconfig_model = "constant";
  // Its parameters as text, each one the model declares (fabric.reconfig_model:
  // {type: NAME, PARAM: VALUE}); absent ones take the declared default.
  std::map<std::string, std::string> reconfig_params;
  Time step_overhead;  // alpha, paid once per step, >= 0
  SyncMode sync = SyncMode::barrier;
  ReconfigurationScope reconfiguration = ReconfigurationScope::all;
  // Task graphs only: a communication node's first circuits may be set up as
  // soon as its GPUs' ports are free, while they still compute.
  bool preconfigure = false;
  CommunicationPriority priority = CommunicationPriority::p2p;
  // The hardware every configuration must be routed on (PCCL's physical
  // layer); unset = every configuration within the port limits exists.
  std::optional<PhysicalSpec> physical;
  // What breaks (fabric.failures, random_failures, failure_detection,
  // on_failure); the default is a healthy fabric.
  FailureSpec failures;
  // Not a YAML key: set by planning_fabric() (core/spec/planning_failures.h)
  // to fabric.ports as configured when switches failed at 0 took ports away
  // (`ports` then counts the surviving ones); 0 otherwise. For messages.
  int configured_ports = 0;
  PacketEngine packet_engine = PacketEngine::trains;
  // Trains only (not a YAML key): reuse what an identical closed window did
  // before (sim/engine/network/window_reuse.h); off, every packet moves.
  bool exact_reuse = true;
};

const char* to_string(CircuitKind kind);
const char* to_string(RouterMode mode);
const char* to_string(EgressOrder order);
const char* to_string(SyncMode mode);
const char* to_string(ReconfigurationScope scope);
const char* to_string(CommunicationPriority priority);
const char* to_string(BandwidthScope scope);

}  // namespace photonsim
