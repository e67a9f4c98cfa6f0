#pragma once
// Contract: the packet-exact DataPlane that moves trains (train.h) instead of
// packets: the same fabric, forwarding rules and egress order as the
// reference Network (network.h states them), the same times to the
// picosecond, the same packets, packet-hops and peak in flight; only the
// events differ. A port that chooses sends its least waiting item and, in
// the same decision, every following packet that would also be chosen back
// to back: the item's next packets of one size (an own flow's, across its
// chunks; a forwarded train's, as they arrive) while their place in the
// egress order stays ahead of everything else waiting. One event per train
// per hop (its choice; its first and last landing), however many packets.
// What arrives later is checked at once (the split rules):
//  - another item that becomes waiting at t: the train keeps its packets
//    that start before t and those after that still go first (their egress
//    key below the newcomer's); the rest go back (an own flow's are uncut
//    again, a forwarded train's wait here again) and the port chooses when
//    its last kept packet ends, with everything waiting;
//  - a train shortened upstream: the trains it feeds lose the packets that
//    no longer come (all of them start after now, so no choice already made
//    changes), down the route.
// Which circuits exist and are lit is the switch's (DataPlane).
// Exact reuse (window_reuse.h): a closed window (FlowSpec::window) whose
// flows all start in one start event, on circuits that are idle and carry
// nothing else under way, is keyed by its flows and their circuits' state.
// Its later occurrences (from the second on; from the third once the
// first-sight budget of window_reuse.h is spent) are not moved: each flow is
// delivered when the recorded one was (relative to the start, in the recorded
// order; one event per instant with deliveries), the packets, packet-hops,
// bytes and in-flight progressions counted as recorded. Until it ends, another flow over one of
// its circuits, or a circuit of it lit or darkened, breaks the promise:
// std::logic_error for a window being reused, no record for one being
// recorded. Off while a timeline records (the ports' busy spans are moved
// packets') and with fabric.exact_reuse = false.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/event_handler.h"
#include "core/event_list.h"
#include "core/segmentation.h"
#include "core/time_slots.h"
#include "core/spec/fabric_spec.h"
#include "sim/engine/network/circuit_failures.h"
#include "sim/engine/network/data_plane.h"
#include "sim/engine/network/egress_entry.h"
#include "sim/engine/network/gpu_router.h"
#include "sim/engine/network/in_flight_peak.h"
#include "sim/engine/network/start_batches.h"
#include "sim/engine/network/train.h"
#include "sim/engine/network/window_reuse.h"

namespace photonsim {

class TrainNetwork final : public DataPlane, public EventHandler {
 public:
  TrainNetwork(const FabricSpec& fabric, Segmentation segmentation, EventList& events);
  // Whether trains reproduce the reference on `fabric`: not when a packet can
  // be forwarded at the picosecond it starts (cut-through with a header that
  // takes no time, no latency). There a landing is made by a choice of the
  // same picosecond, and the reference orders such landings and choices by
  // when its events were made; the packet engine runs the reference there.
  // Nor where circuits go down or links degrade (fabric.failures): trains
  // do not model losses or a rate that changes, the reference does
  // (docs/model.md, "Lost circuits", L9, and "A degraded link").
  static bool exact_on(const FabricSpec& fabric) {
    if (CircuitFailures::takes_circuits_down(fabric.failures) || CircuitFailures::degrades_links(fabric.failures)) {
      return false;
    }
    return fabric.router != RouterMode::cut_through || fabric.latency > Time::zero() ||
           fabric.bandwidth.serialization(fabric.header) > Time::zero();
  }
  TrainNetwork(const TrainNetwork&) = delete;
  TrainNetwork& operator=(const TrainNetwork&) = delete;

  void reset_circuits(size_t slots) override;
  void light(uint32_t circuit, Node from, Node to, uint32_t port, Bandwidth rate, Time now) override;
  void darken(uint32_t circuit, Time now) override;
  bool lit(uint32_t circuit) const override { return ports_.at(circuit).lit; }
  uint32_t add_flows(std::vector<FlowSpec> flows, Time at) override;
  const std::vector<uint32_t>& flow_route(uint32_t flow) const override { return flow_at(flow).spec.route; }
  bool all_delivered() const override { return flows_remaining_ == 0; }
  bool forget_delivered_flows() override;
  size_t flows_held() const override { return flows_.size(); }
  void set_listener(FlowListener* listener) override { listener_ = listener; }
  void record_into(TimelineRecorder* recorder) override { recorder_ = recorder; }
  void check_conservation() const override;
  NetworkStats stats() const override;
  // Trains formed (each counts once however often it was shortened).
  uint64_t trains() const { return trains_formed_; }
  // Windows replayed from a record (exact reuse).
  uint64_t reused() const { return reuse_.reused(); }

  void on_event(Time now, uint64_t token) override;

 private:
  enum class Kind : uint64_t { start = 1, arrive = 2, done = 3, decide = 4, replayed = 5 };
  // What waits at a port: an own flow (owner: flow id) or a train of the
  // previous circuit (owner: train id) whose next untaken packet has arrived.
  struct Waiting {
    EgressEntry key;
    uint32_t owner;
    uint32_t gen;
    bool own;
  };
  enum EntryState : uint8_t { kNoEntry = 0, kQueued = 1, kPending = 2 };
  struct Port {
    Node from = 0;
    Node to = 0;
    uint32_t port = 0;
    Bandwidth rate;
    bool lit = false;
    std::vector<Waiting> heap;  // least on top; stale items skipped
    uint32_t queued = 0;        // live items in `heap`
    uint32_t on_wire = 0;       // its trains not yet done
    uint32_t active = Train::kNone;
    uint64_t active_serial = 0;
    Time free_at;
    bool decide_pending = false;
    Time decide_at;
    uint32_t memo_bytes = UINT32_MAX;
    Time memo_time;
  };
  struct Flow {
    FlowSpec spec;
    int64_t chunk_bytes = 0;
    int64_t injected = 0;
    int64_t delivered = 0;
    uint32_t next_chunk = 0;
    int64_t offset_in_chunk = 0;
    uint64_t next_seq = 0;
    uint64_t packets_delivered = 0;
    Time started_at;
    uint32_t entry_gen = 0;
    uint8_t entry_state = kNoEntry;
    uint32_t window = kNoWindow;  // the window recording or reusing it
    uint32_t window_index = 0;    // its index there
  };
  static constexpr uint32_t kNoWindow = UINT32_MAX;
  // A closed window under way that is recorded or reused.
  struct Window {
    Time start;
    std::vector<uint32_t> flows;  // ids, ascending
    std::vector<uint32_t> slots;  // the circuits they cross, each once
    uint32_t left = 0;            // flows not yet delivered
    bool reusing = false;
    bool intact = true;  // recording: nothing else used or changed its circuits
    WindowReuse::Key key;
    WindowRecord record;
    // As new, keeping its buffers for the next window.
    void clear() {
      start = Time::zero();
      flows.clear();
      slots.clear();
      left = 0;
      reusing = false;
      intact = true;
      key.clear();
      record.deliveries.clear();
      record.cuts.clear();
      record.landed.clear();
    }
  };

  void schedule(Time at, Kind kind, uint32_t id, uint32_t gen, EventPriority priority);
  const Flow& flow_at(uint32_t flow) const { return flows_.at(flow - flow_base_); }
  Flow& flow_at(uint32_t flow) { return flows_.at(flow - flow_base_); }
  Time serialization(Port& port, uint32_t bytes);
  bool idle(uint32_t circuit) const;

  // Egress keys, as the reference Network's FlowTable makes them.
  EgressEntry own_key(const Flow& flow, uint32_t id, uint32_t chunk) const;
  EgressEntry packet_key(const Train& train, uint32_t k) const;  // train's packet k at its own port
  EgressEntry incoming_key(const Train& up, uint32_t j) const;   // up's packet j at the next port
  int64_t chunk_size(const Flow& flow, uint32_t chunk) const;

  void start(uint64_t batch, Time now);
  void push(uint32_t circuit, const Waiting& item);
  void queue_own(uint32_t flow, Time now);
  void drop_own_entry(Flow& flow);
  void requeue_incoming(uint32_t up, Time now);  // up's next untaken packet waits at the next port, now or later
  void drop_incoming_entry(Train& up);
  void land(uint32_t up, Time now);  // up's next packet waits at the next port: an arrival
  void arrival(uint32_t circuit, const EgressEntry& key, Time now);
  void wake(uint32_t circuit, Time now);
  void decide(uint32_t batch, Time now);
  void choose(uint32_t circuit, Time now);
  bool pop_least(Port& port, Waiting& least);
  const Waiting* peek_least(Port& port);
  uint32_t new_train();
  void launch(uint32_t id, Time now);
  void shorten(uint32_t id, uint32_t keep, Time now, bool returned);
  void done(uint32_t id, Time now);
  // Quiescent (nothing in flight, nothing left to start): folds the peak so
  // far before the listener adds the next flows, so its record follows the
  // flows under way instead of the whole run.
  void settle_peak_if_quiescent();
  void try_release(uint32_t id);
  // Exact reuse: the closed windows among the flows a start event starts.
  void open_windows(uint32_t first, uint32_t end, Time now);
  void reuse(Window& window, const WindowRecord& record, Time now);
  // Window w's replayed deliveries at one instant, from its record's entry first.
  void replay_deliveries(uint32_t w, uint32_t first, Time now);
  // Something else crosses, lights or darkens `circuit`: a window holding it
  // is broken (see the contract).
  void touch(uint32_t circuit);
  // A flow is delivered: its circuits carry one flow less; its window hears it.
  void flow_finished(Flow& flow, Time now);

  FabricSpec fabric_;
  Segmentation segmentation_;
  EventList& events_;
  GpuRouter router_;  // the forwarding rule (forwardable_after) only
  NetworkStats stats_;
  InFlightPeak peak_;
  FlowListener* listener_ = nullptr;
  TimelineRecorder* recorder_ = nullptr;
  std::vector<Port> ports_;
  TimeSlots<std::vector<uint32_t>> batches_;
  Time chose_at_ = Time::ps(
      -1);  // the last picosecond whose ports have chosen  // per picosecond with a decide event: the ports choosing then
  std::vector<Flow> flows_;
  size_t flow_base_ = 0;
  size_t flows_remaining_ = 0;
  std::vector<Train> trains_;
  std::vector<uint32_t> free_trains_;
  size_t trains_alive_ = 0;
  uint64_t next_serial_ = 1;
  uint64_t trains_formed_ = 0;

  StartBatches starts_;

  const bool reuse_on_;
  WindowReuse reuse_;
  WindowReuse::Key window_key_;  // open_windows' scratch: a window's key as built
  std::vector<Window> windows_;
  std::vector<uint32_t> free_windows_;
  std::vector<uint32_t> slot_users_;  // per circuit: flows over it not yet delivered
  // open_windows' scratch, kept between starts: (window, flow) of the flows
  // started; (circuit, flows over it) of one window; per circuit, its place
  // among those crossings.
  static constexpr uint32_t kNoCrossing = UINT32_MAX;
  std::vector<std::pair<uint64_t, uint32_t>> tagged_;
  std::vector<std::pair<uint32_t, uint32_t>> crossings_;
  std::vector<uint32_t> crossing_of_;
  std::vector<uint32_t> slot_window_;  // per circuit: the window holding it (kNoWindow: none)
};

}  // namespace photonsim
