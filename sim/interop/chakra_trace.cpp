#include "sim/interop/chakra_trace.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "chakra_et.pb.h"
#include "core/error.h"
#include "core/input_file.h"
#include "schedules/model/schedule_io.h"
#include "sim/interop/chakra_writer.h"

namespace photonsim {

namespace {

struct Attribute {
  std::optional<int64_t> integer;
  std::optional<uint64_t> too_large;  // an unsigned value past int64: refused where it is read
  std::optional<std::string> text;
};

struct TraceNode {
  uint64_t id = 0;
  std::string name;
  int type = 0;
  std::vector<uint64_t> deps;  // data_deps, as written
  uint64_t duration_us = 0;
  bool cpu = false;  // is_cpu_op: host-side, off the GPU
  std::map<std::string, Attribute> attrs;
};

struct RankTrace {
  std::string file;  // as shown in messages
  std::vector<TraceNode> nodes;
  std::unordered_map<uint64_t, size_t> index;  // id -> place
  size_t controls = 0;                         // ctrl_deps, not read
  std::optional<std::string> schedule;         // the GlobalMetadata's photonsim_schedule (photonsim's export)
  size_t nodes_begin = 0;                      // where the first node's message starts in the file
};

std::string describe(const RankTrace& trace, const TraceNode& node) {
  return trace.file + ": node " + std::to_string(node.id) + (node.name.empty() ? "" : " (" + node.name + ")");
}

[[noreturn]] void fail(const RankTrace& trace, const TraceNode& node, const std::string& what) {
  throw Error(describe(trace, node) + ": " + what);
}

Attribute attribute_of(const chakra::AttributeProto& a) {
  using P = chakra::AttributeProto;
  Attribute out;
  switch (a.value_case()) {
    case P::kInt32Val:
      out.integer = a.int32_val();
      break;
    case P::kInt64Val:
      out.integer = a.int64_val();
      break;
    case P::kUint32Val:
      out.integer = a.uint32_val();
      break;
    case P::kUint64Val:
      if (a.uint64_val() > static_cast<uint64_t>(INT64_MAX)) {
        out.too_large = a.uint64_val();
      } else {
        out.integer = static_cast<int64_t>(a.uint64_val());
      }
      break;
    case P::kSint32Val:
      out.integer = a.sint32_val();
      break;
    case P::kSint64Val:
      out.integer = a.sint64_val();
      break;
    case P::kFixed32Val:
      out.integer = a.fixed32_val();
      break;
    case P::kFixed64Val:
      if (a.fixed64_val() > static_cast<uint64_t>(INT64_MAX)) {
        out.too_large = a.fixed64_val();
      } else {
        out.integer = static_cast<int64_t>(a.fixed64_val());
      }
      break;
    case P::kSfixed32Val:
      out.integer = a.sfixed32_val();
      break;
    case P::kSfixed64Val:
      out.integer = a.sfixed64_val();
      break;
    case P::kBoolVal:
      out.integer = a.bool_val() ? 1 : 0;
      break;
    case P::kStringVal:
      out.text = a.string_val();
      break;
    case P::kBytesVal:
      out.text = a.bytes_val();
      break;
    default:
      break;
  }
  return out;
}

RankTrace parse_rank(const std::string& bytes, const std::string& shown) {
  if (bytes.size() > static_cast<size_t>(INT32_MAX))
    throw Error(shown + ": over 2 GiB, more than one trace file reads");
  google::protobuf::io::ArrayInputStream stream(bytes.data(), static_cast<int>(bytes.size()));
  RankTrace trace;
  trace.file = shown;
  chakra::GlobalMetadata metadata;
  bool clean_eof = false;
  if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&metadata, &stream, &clean_eof)) {
    throw Error(shown + ": " +
                (clean_eof ? "empty: no global metadata"
                           : "the global metadata is truncated or not a "
                             "Chakra GlobalMetadata message"));
  }
  trace.nodes_begin = static_cast<size_t>(stream.ByteCount());
  for (const chakra::AttributeProto& a : metadata.attr()) {
    if (a.name() != kChakraScheduleAttr) continue;
    trace.schedule = a.value_case() == chakra::AttributeProto::kBytesVal ? a.bytes_val() : a.string_val();
  }
  for (size_t k = 0;; ++k) {
    chakra::Node message;
    if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&message, &stream, &clean_eof)) {
      if (clean_eof) break;
      const std::string after = trace.nodes.empty() ? "the global metadata" : describe(trace, trace.nodes.back());
      throw Error(shown + ": message " + std::to_string(k + 1) + " (after " + after +
                  ") is truncated or not a Chakra Node");
    }
    TraceNode node;
    node.id = message.id();
    node.name = message.name();
    node.type = static_cast<int>(message.type());
    node.deps.assign(message.data_deps().begin(), message.data_deps().end());
    trace.controls += static_cast<size_t>(message.ctrl_deps_size());
    node.duration_us = message.duration_micros();
    for (const chakra::AttributeProto& a : message.attr()) node.attrs[a.name()] = attribute_of(a);
    const auto cpu = node.attrs.find("is_cpu_op");
    node.cpu = cpu != node.attrs.end() && cpu->second.integer && *cpu->second.integer != 0;
    if (!trace.index.emplace(node.id, trace.nodes.size()).second) fail(trace, node, "its id is used by another node");
    trace.nodes.push_back(std::move(node));
  }
  return trace;
}

int64_t integer_attr(const RankTrace& t, const TraceNode& n, const std::string& key, std::optional<int64_t> fallback) {
  const auto it = n.attrs.find(key);
  if (it != n.attrs.end() && it->second.too_large) {
    fail(t, n,
         "the integer attribute '" + key + "' is " + std::to_string(*it->second.too_large) +
             ", past the largest integer photonsim reads, 9223372036854775807 (nothing is clamped)");
  }
  if (it == n.attrs.end() || !it->second.integer) {
    if (fallback) return *fallback;
    fail(t, n, "missing the integer attribute '" + key + "'");
  }
  return *it->second.integer;
}

const char* type_name(int type) {
  static const char* names[] = {"INVALID_NODE", "METADATA_NODE",  "MEM_LOAD_NODE",  "MEM_STORE_NODE",
                                "COMP_NODE",    "COMM_SEND_NODE", "COMM_RECV_NODE", "COMM_COLL_NODE"};
  return type >= 0 && type < 8 ? names[type] : "?";
}

const char* comm_type_name(int64_t type) {
  static const char* names[] = {
      "ALL_REDUCE", "REDUCE",         "ALL_GATHER",           "GATHER", "SCATTER", "BROADCAST",
      "ALL_TO_ALL", "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK", "BARRIER"};
  return type >= 0 && type < 10 ? names[type] : "?";
}

std::optional<Collective> collective_of(int64_t comm_type) {
  switch (comm_type) {
    case chakra::ALL_REDUCE:
      return Collective::allreduce;
    case chakra::ALL_GATHER:
      return Collective::allgather;
    case chakra::REDUCE_SCATTER:
      return Collective::reducescatter;
    case chakra::ALL_TO_ALL:
      return Collective::alltoall;
    case chakra::BROADCAST:
      return Collective::broadcast;
    default:
      return std::nullopt;
  }
}

class Builder {
 public:
  Builder(std::vector<RankTrace> traces) : traces_(std::move(traces)) {
    global_.resize(traces_.size());
    received_.resize(traces_.size());
    for (size_t r = 0; r < traces_.size(); ++r) {
      global_[r].assign(traces_[r].nodes.size(), kPassThrough);
      received_[r].assign(traces_[r].nodes.size(), kPassThrough);
    }
  }

  ChakraGraph build() {
    for (size_t r = 0; r < traces_.size(); ++r) {
      for (size_t i = 0; i < traces_[r].nodes.size(); ++i) classify(r, i);
    }
    for (const auto& [key, p] : p2p_) {
      if (!p.sent || !p.received) {
        const RankTrace& t = traces_[p.first_rank];
        fail(t, t.nodes[p.first_node],
             std::string(p.sent ? "a send to rank " + std::to_string(std::get<1>(key)) + " with tag " +
                                      std::to_string(std::get<2>(key)) + " that rank " +
                                      std::to_string(std::get<1>(key)) + " never receives"
                                : "a receive from rank " + std::to_string(std::get<0>(key)) + " with tag " +
                                      std::to_string(std::get<2>(key)) + " that rank " +
                                      std::to_string(std::get<0>(key)) + " never sends"));
      }
    }
    for (size_t g = 0; g < graph_.nodes.size(); ++g) {
      if (graph_.nodes[g].kind == TaskKind::collective) check_collective(g);
    }
    std::vector<std::set<uint32_t>> after(graph_.nodes.size());
    for (size_t r = 0; r < traces_.size(); ++r) {
      // One at a time, in file order, per rank: GPU compute, collectives, and
      // host (CPU) operations, as ASTRA-sim's HardwareResource holds one of
      // each in flight.
      int64_t last_compute = -1, last_collective = -1, last_host = -1;
      for (size_t i = 0; i < traces_[r].nodes.size(); ++i) {
        const int64_t g = global_[r][i];
        if (g < 0) continue;
        for (uint32_t d : resolve(r, i)) {
          if (d != g) after[static_cast<size_t>(g)].insert(d);
        }
        const TaskKind kind = graph_.nodes[static_cast<size_t>(g)].kind;
        int64_t* last = kind == TaskKind::compute      ? &last_compute
                        : kind == TaskKind::collective ? &last_collective
                        : kind == TaskKind::delay      ? &last_host
                                                       : nullptr;
        if (last != nullptr) {
          if (*last >= 0 && *last != g) after[static_cast<size_t>(g)].insert(static_cast<uint32_t>(*last));
          *last = g;
        }
      }
    }
    for (size_t g = 0; g < graph_.nodes.size(); ++g) {
      for (uint32_t d : after[g]) graph_.nodes[g].after.push_back(graph_.nodes[d].name);
    }
    graph_.ranks = static_cast<int>(traces_.size());
    for (const auto& [what, count] : ignored_) {
      graph_.warnings.push_back(std::to_string(count) + " " + what + " passed through (not simulated)");
    }
    size_t controls = 0;
    for (const RankTrace& t : traces_) controls += t.controls;
    if (controls > 0) {
      graph_.warnings.push_back(std::to_string(controls) +
                                " ctrl_deps not read (dependencies are data_deps, as Chakra's feeder reads them; its "
                                "PyTorch converter turns the ordering ones into data_deps)");
    }
    for (const auto& [what, count] : hosted_) {
      graph_.warnings.push_back(std::to_string(count) + " " + what +
                                " run as host delays (their duration, holding no GPU or port)");
    }
    return std::move(graph_);
  }

 private:
  static constexpr int64_t kPassThrough = -1;
  struct PointToPoint {
    uint32_t node = 0;
    bool sent = false, received = false;
    size_t first_rank = 0, first_node = 0;
    int64_t received_size = -1;  // the receive's comm_size, when it gives one
    size_t receive_rank = 0, receive_node = 0;
  };

  uint32_t add(TaskNode node, size_t r, size_t i) {
    graph_.nodes.push_back(std::move(node));
    graph_.locations.push_back(describe(traces_[r], traces_[r].nodes[i]));
    return static_cast<uint32_t>(graph_.nodes.size() - 1);
  }

  void ignore(const std::string& what) { ++ignored_[what]; }

  Time duration_of(const RankTrace& t, const TraceNode& n) {
    // photonsim's own export (chakra_writer.h) keeps the exact picoseconds.
    if (n.attrs.count("duration_ps") != 0) {
      const int64_t ps = integer_attr(t, n, "duration_ps", std::nullopt);
      if (ps <= 0) fail(t, n, "duration_ps must be positive picoseconds (got " + std::to_string(ps) + ")");
      return Time::ps(ps);
    }
    // Exactly as given, or refused: never clamped.
    if (n.duration_us > static_cast<uint64_t>(INT64_MAX / 1'000'000)) {
      fail(t, n,
           "duration_micros " + std::to_string(n.duration_us) +
               " us is past the largest time photonsim represents, 9223372036854775807 ps (about 106.75 days, "
               "9223372036854 us)");
    }
    return Time::us(static_cast<int64_t>(n.duration_us));
  }

  // Node i of rank r as a compute or delay node of its duration on rank r.
  void add_timed(TaskKind kind, const std::string& prefix, size_t r, size_t i) {
    const TraceNode& n = traces_[r].nodes[i];
    TaskNode node;
    node.name = prefix + n.name;
    node.kind = kind;
    node.gpus = {static_cast<int>(r)};
    node.duration = duration_of(traces_[r], n);
    global_[r][i] = add(std::move(node), r, i);
  }

  void classify(size_t r, size_t i) {
    const RankTrace& t = traces_[r];
    const TraceNode& n = t.nodes[i];
    const std::string prefix = "r" + std::to_string(r) + "." + std::to_string(n.id) + (n.name.empty() ? "" : ".");
    if (n.cpu && n.type != chakra::METADATA_NODE && n.type != chakra::INVALID_NODE) {
      // Host-side work (a PyTorch trace's CPU operators, c10d's CPU-side
      // collectives): its duration on the rank's host, off the GPU and the
      // fabric; what the GPU runs is in the trace's GPU nodes.
      if (n.type < chakra::INVALID_NODE || n.type > chakra::COMM_COLL_NODE) {
        fail(t, n, "unknown node type " + std::to_string(n.type) + " (Chakra's are 0..7)");
      }
      if (n.duration_us == 0) {
        ignore(std::string("CPU-side ") + type_name(n.type) + "s of 0 us");
        return;
      }
      ++hosted_[std::string("CPU-side ") + type_name(n.type) + "s"];
      add_timed(TaskKind::delay, prefix, r, i);
      return;
    }
    switch (n.type) {
      case chakra::COMP_NODE: {
        // photonsim's export: the schedule's reconfiguration, which the
        // sends' own circuit set-ups charge (fabric.reconfig_delay).
        const auto marked = n.attrs.find(kChakraReconfigurationAttr);
        if (marked != n.attrs.end() && marked->second.integer && *marked->second.integer != 0) {
          ignore(std::string("reconfiguration nodes (") + kChakraReconfigurationAttr +
                 ": each send sets up its own circuit, fabric.reconfig_delay)");
          return;
        }
        if (n.duration_us == 0) {
          ignore("compute nodes of 0 us");
          return;
        }
        add_timed(TaskKind::compute, prefix, r, i);
        return;
      }
      case chakra::COMM_COLL_NODE: {
        const int64_t comm_type = integer_attr(t, n, "comm_type", std::nullopt);
        const std::optional<Collective> collective = collective_of(comm_type);
        if (!collective) {
          if (comm_type < 0 || comm_type > 9) {
            fail(t, n, "unknown comm_type " + std::to_string(comm_type) + " (Chakra's are 0..9)");
          }
          ignore(std::string(comm_type_name(comm_type)) + " collectives");
          return;
        }
        const int64_t size = integer_attr(t, n, "comm_size", std::nullopt);
        if (size <= 0) fail(t, n, "comm_size must be positive bytes (got " + std::to_string(size) + ")");
        const auto pg = n.attrs.find("pg_name");
        const std::string group = pg != n.attrs.end() && pg->second.text ? *pg->second.text : "";
        const size_t k = collectives_seen_[{r, group}]++;
        const auto key = std::make_pair(group, k);
        auto it = collectives_.find(key);
        if (it == collectives_.end()) {
          TaskNode c;
          c.name =
              (group.empty() ? std::string("world") : group) + ".c" + std::to_string(k) + "." + to_string(*collective);
          c.kind = TaskKind::collective;
          c.collective = *collective;
          c.message = Bytes(size);
          // Only a broadcast reads its root (default: the rank that names it first).
          const int64_t root = *collective == Collective::broadcast
                                   ? integer_attr(t, n, "root", static_cast<int64_t>(r))
                                   : static_cast<int64_t>(r);
          if (root < 0 || root >= static_cast<int64_t>(traces_.size())) {
            fail(t, n,
                 "root " + std::to_string(root) + " is not a rank (0.." + std::to_string(traces_.size() - 1) + ")");
          }
          c.root = static_cast<int>(root);
          it = collectives_.emplace(key, add(std::move(c), r, i)).first;
        }
        TaskNode& c = graph_.nodes[it->second];
        if (c.collective != *collective || c.message.count() != size) {
          fail(t, n,
               std::string("is ") + comm_type_name(comm_type) + " of " + std::to_string(size) + " bytes, but " +
                   graph_.locations[it->second] + ", the same collective of process group '" + group +
                   "' on another rank, is " + to_string(c.collective) + " of " + std::to_string(c.message.count()) +
                   " bytes");
        }
        c.gpus.push_back(static_cast<int>(r));
        global_[r][i] = it->second;
        return;
      }
      case chakra::COMM_SEND_NODE:
      case chakra::COMM_RECV_NODE: {
        // As ASTRA-sim: a send starts once its own dependencies are done
        // and ends when its data has arrived; a receive ends when both its
        // dependencies are done and the data has arrived (it takes no time of
        // its own). So the send is the p2p node and the receive passes its
        // dependencies on with that node's: no valid trace becomes a cycle.
        const bool send = n.type == chakra::COMM_SEND_NODE;
        const int64_t peer = integer_attr(t, n, send ? "comm_dst" : "comm_src", std::nullopt);
        if (peer < 0 || peer >= static_cast<int64_t>(traces_.size()) || peer == static_cast<int64_t>(r)) {
          fail(t, n,
               std::string(send ? "comm_dst " : "comm_src ") + std::to_string(peer) + " is not another rank (0.." +
                   std::to_string(traces_.size() - 1) + ")");
        }
        const int64_t self = integer_attr(t, n, send ? "comm_src" : "comm_dst", static_cast<int64_t>(r));
        if (self != static_cast<int64_t>(r)) {
          fail(t, n,
               std::string(send ? "a send" : "a receive") + " in rank " + std::to_string(r) + "'s trace gives " +
                   (send ? "comm_src " : "comm_dst ") + std::to_string(self) + " (ASTRA-sim requires " +
                   (send ? "the sender" : "the receiver") + " to be the trace's own rank)");
        }
        const int64_t tag = integer_attr(t, n, "comm_tag", int64_t{0});
        const int64_t src = send ? static_cast<int64_t>(r) : peer, dst = send ? peer : static_cast<int64_t>(r);
        const auto counter_key = std::make_tuple(src, dst, tag, send);
        const size_t k = p2p_seen_[counter_key]++;
        const auto key = std::make_tuple(src, dst, tag, k);
        auto it = p2p_.find(key);
        if (it == p2p_.end()) {
          TaskNode p;
          p.name = "p2p." + std::to_string(src) + "->" + std::to_string(dst) + ".tag" + std::to_string(tag) + "." +
                   std::to_string(k);
          p.kind = TaskKind::p2p;
          p.src = static_cast<int>(src);
          p.dst = static_cast<int>(dst);
          PointToPoint entry;
          entry.first_rank = r;
          entry.first_node = i;
          entry.node = add(std::move(p), r, i);
          it = p2p_.emplace(key, entry).first;
        }
        PointToPoint& entry = it->second;
        TaskNode& p = graph_.nodes[entry.node];
        if (send) {
          const int64_t size = integer_attr(t, n, "comm_size", std::nullopt);
          if (size <= 0) fail(t, n, "comm_size must be positive bytes (got " + std::to_string(size) + ")");
          p.bytes = Bytes(size);
          entry.sent = true;
          graph_.locations[entry.node] = describe(t, n);  // a p2p node is where its send is
          global_[r][i] = entry.node;
        } else {
          entry.received = true;
          entry.received_size = integer_attr(t, n, "comm_size", int64_t{-1});
          entry.receive_rank = r;
          entry.receive_node = i;
          received_[r][i] = entry.node;
        }
        if (entry.sent && entry.received && entry.received_size >= 0 && entry.received_size != p.bytes.count()) {
          const RankTrace& rt = traces_[entry.receive_rank];
          fail(rt, rt.nodes[entry.receive_node],
               "receives " + std::to_string(entry.received_size) + " bytes but the matching send, " +
                   graph_.locations[entry.node] + ", sends " + std::to_string(p.bytes.count()) +
                   " (ASTRA-sim pairs a send and a receive only of the same comm_size)");
        }
        return;
      }
      case chakra::INVALID_NODE:
      case chakra::METADATA_NODE:
      case chakra::MEM_LOAD_NODE:
      case chakra::MEM_STORE_NODE:
        ignore(std::string(type_name(n.type)) + "s");
        return;
      default:
        fail(t, n, "unknown node type " + std::to_string(n.type) + " (Chakra's are 0..7)");
    }
  }

  void check_collective(size_t g) {
    TaskNode& c = graph_.nodes[g];
    if (c.gpus.size() < 2) {
      throw Error(graph_.locations[g] + ": a " + to_string(c.collective) +
                  " its process group holds on this rank alone (a collective needs at least two ranks; a "
                  "single rank's trace runs with replicate: N)");
    }
    if (c.collective == Collective::broadcast && std::find(c.gpus.begin(), c.gpus.end(), c.root) == c.gpus.end()) {
      throw Error(graph_.locations[g] + ": the broadcast root " + std::to_string(c.root) + " is not in its group");
    }
    const auto members = static_cast<int64_t>(c.gpus.size());
    if (c.collective == Collective::alltoall) {
      // ASTRA-sim: the rank's whole buffer, n messages of comm_size / n;
      // photonsim: each (source, destination) flow.
      const int64_t per_flow = c.message.count() / members;
      if (per_flow <= 0) throw Error(graph_.locations[g] + ": comm_size is smaller than the group");
      if (c.message.count() % members != 0) {
        graph_.warnings.push_back(graph_.locations[g] + ": all-to-all comm_size " + std::to_string(c.message.count()) +
                                  " is not a multiple of its " + std::to_string(members) + " ranks: each flow is " +
                                  std::to_string(per_flow) + " bytes, the remainder dropped (as ASTRA-sim divides)");
      }
      c.message = Bytes(per_flow);
    } else if (c.collective == Collective::allgather) {
      // ASTRA-sim: each rank's input (its ring sends n - 1 messages of
      // comm_size); photonsim: the gathered whole, n blocks.
      int64_t whole = 0;
      if (__builtin_mul_overflow(c.message.count(), members, &whole)) {
        throw Error(graph_.locations[g] + ": an all-gather of " + std::to_string(c.message.count()) +
                    " bytes a rank over " + std::to_string(members) +
                    " ranks gathers past the largest size photonsim represents, 9223372036854775807 bytes");
      }
      c.message = Bytes(whole);
    }
  }

  // The task nodes that node i of rank r waits for: its dependencies, through
  // passed-through nodes to the task nodes behind them (a receive's: its
  // send too). Depth first with an explicit stack: a chain of passed-through
  // nodes may be as long as the file.
  const std::vector<uint32_t>& resolve(size_t r, size_t i) {
    if (resolved_.size() != traces_.size()) {
      resolved_.resize(traces_.size());
      state_.resize(traces_.size());
      for (size_t q = 0; q < traces_.size(); ++q) {
        resolved_[q].resize(traces_[q].nodes.size());
        state_[q].assign(traces_[q].nodes.size(), 0);
      }
    }
    const RankTrace& t = traces_[r];
    const auto place_of = [&](const TraceNode& n, uint64_t dep) {
      if (dep == n.id) fail(t, n, "depends on itself");
      const auto it = t.index.find(dep);
      if (it == t.index.end()) fail(t, n, "depends on node " + std::to_string(dep) + ", which is not in " + t.file);
      return it->second;
    };
    if (state_[r][i] == 2) return resolved_[r][i];
    std::vector<std::pair<size_t, size_t>> stack{{i, 0}};  // node, its next dependency
    state_[r][i] = 1;
    while (!stack.empty()) {
      const size_t node = stack.back().first;
      const TraceNode& n = t.nodes[node];
      if (stack.back().second < n.deps.size()) {
        const size_t j = place_of(n, n.deps[stack.back().second++]);
        if (global_[r][j] >= 0 || state_[r][j] == 2) continue;
        if (state_[r][j] == 1) fail(t, n, "its dependencies through nodes that are not simulated form a cycle");
        state_[r][j] = 1;
        stack.emplace_back(j, 0);
        continue;
      }
      std::set<uint32_t> out;
      for (uint64_t dep : n.deps) {
        const size_t j = place_of(n, dep);
        if (global_[r][j] >= 0) {
          out.insert(static_cast<uint32_t>(global_[r][j]));
        } else {
          out.insert(resolved_[r][j].begin(), resolved_[r][j].end());
          if (received_[r][j] >= 0) out.insert(static_cast<uint32_t>(received_[r][j]));
        }
      }
      resolved_[r][node].assign(out.begin(), out.end());
      state_[r][node] = 2;
      stack.pop_back();
    }
    return resolved_[r][i];
  }

  std::vector<RankTrace> traces_;
  std::vector<std::vector<int64_t>> global_;    // per rank, per node: its task node, or kPassThrough
  std::vector<std::vector<int64_t>> received_;  // per rank, per receive node: the p2p node it waits for
  ChakraGraph graph_;
  std::map<std::pair<size_t, std::string>, size_t> collectives_seen_;
  std::map<std::pair<std::string, size_t>, uint32_t> collectives_;
  std::map<std::tuple<int64_t, int64_t, int64_t, bool>, size_t> p2p_seen_;
  std::map<std::tuple<int64_t, int64_t, int64_t, size_t>, PointToPoint> p2p_;
  std::map<std::string, size_t> ignored_;
  std::map<std::string, size_t> hosted_;
  std::vector<std::vector<std::vector<uint32_t>>> resolved_;
  std::vector<std::vector<char>> state_;
};

// One rank's trace on ranks 0..copies-1, each rank the same nodes (every
// process group then spans all of them). Its sends and receives name fixed
// peers, so copies of them would not pair: refused.
ChakraGraph replicated(RankTrace trace, int copies, std::vector<std::string> files) {
  if (copies < 2) throw Error(trace.file + ": replicate must be at least 2 ranks (got " + std::to_string(copies) + ")");
  for (const TraceNode& n : trace.nodes) {
    if (!n.cpu && (n.type == chakra::COMM_SEND_NODE || n.type == chakra::COMM_RECV_NODE)) {
      fail(trace, n,
           std::string(n.type == chakra::COMM_SEND_NODE ? "a send" : "a receive") +
               " names a fixed peer rank, so copies of this trace cannot pair up; replicate runs only traces "
               "without sends and receives (give each rank's own file instead)");
    }
  }
  std::vector<RankTrace> traces;
  for (int r = 0; r < copies; ++r) {
    traces.push_back(trace);
    traces.back().file = trace.file + " (as rank " + std::to_string(r) + ")";
  }
  ChakraGraph graph = Builder(std::move(traces)).build();
  graph.files = std::move(files);
  return graph;
}

// Where the first node starts in a trace file: after its length-delimited
// GlobalMetadata.
size_t after_metadata(const std::string& bytes) {
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(std::min<size_t>(bytes.size(), INT32_MAX)));
  uint32_t size = 0;
  if (!in.ReadVarint32(&size)) return bytes.size();
  return std::min(bytes.size(), static_cast<size_t>(in.CurrentPosition()) + size);
}

// photonsim's own export (chakra_writer.h), seen rank by rank: rank 0's
// metadata holds the schedule, and the files are its export unmodified when
// there is one per GPU of the schedule and every rank's nodes are byte for
// byte those chakra_traces_of writes for it.
class ExportMatch {
 public:
  explicit ExportMatch(size_t ranks) : ranks_(ranks) {}

  // Rank r's file, read and parsed.
  void see(size_t r, const std::string& bytes, const RankTrace& trace) {
    if (r == 0) {
      if (!trace.schedule) return;
      try {
        schedule_ = parse_schedule(*trace.schedule, false, kChakraScheduleAttr);
      } catch (const Error& e) {
        throw Error(trace.file + ": the global metadata's " + kChakraScheduleAttr +
                    " (photonsim's export of a schedule) does not read back: " + e.what());
      }
      first_file_ = trace.file;
      // Written again only for as many ranks as there are files.
      if (static_cast<size_t>(schedule_->gpus()) != ranks_) {
        differs_ = "it is a schedule on " + std::to_string(schedule_->gpus()) + " GPUs and there are " +
                   std::to_string(ranks_) + " files";
        return;
      }
      expected_ = chakra_traces_of(*schedule_);
    }
    if (!schedule_ || !differs_.empty()) return;
    if (bytes.compare(trace.nodes_begin, std::string::npos, expected_[r], after_metadata(expected_[r]),
                      std::string::npos) != 0) {
      differs_ = trace.file + " holds other nodes than photonsim writes for it";
    }
  }

  // After the last rank: the schedule when the files are its export.
  std::optional<Schedule> finish(std::vector<std::string>& warnings) {
    if (!schedule_) return std::nullopt;
    if (differs_.empty()) return std::move(schedule_);
    warnings.push_back("photonsim's export of a schedule (" + std::string(kChakraScheduleAttr) + " in " + first_file_ +
                       "), but " + differs_ + ": read as a task graph of the nodes, not as that schedule");
    return std::nullopt;
  }

 private:
  size_t ranks_;
  std::optional<Schedule> schedule_;
  std::vector<std::string> expected_;
  std::string first_file_;
  std::string differs_;  // what is not photonsim's export (empty: nothing yet)
};

// The graph of the ranks' traces, or the schedule they are photonsim's export of.
ChakraGraph graph_of(std::vector<RankTrace> traces, ExportMatch& match) {
  const size_t ranks = traces.size();
  std::vector<std::string> warnings;
  if (std::optional<Schedule> schedule = match.finish(warnings)) {
    ChakraGraph graph;
    graph.ranks = static_cast<int>(ranks);
    graph.schedule = std::move(schedule);
    return graph;
  }
  ChakraGraph graph = Builder(std::move(traces)).build();
  graph.warnings.insert(graph.warnings.begin(), warnings.begin(), warnings.end());
  return graph;
}

}  // namespace

ChakraGraph read_chakra_traces(const std::string& prefix, const std::string& shown_prefix, int replicate) {
  std::vector<RankTrace> traces;
  std::vector<std::string> files;
  // The ranks are the files that exist; one that exists but is no regular
  // file (a FIFO, a device) is refused by read_input_file, not skipped.
  const auto rank_file = [&](size_t r) { return prefix + "." + std::to_string(r) + ".et"; };
  const auto absent = [](const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) != 0 && errno == ENOENT;
  };
  size_t ranks = 0;
  while (!absent(rank_file(ranks))) ++ranks;
  ExportMatch match(ranks);
  for (size_t r = 0; r < ranks; ++r) {
    const std::string path = rank_file(r);
    const std::string shown = shown_prefix + "." + std::to_string(r) + ".et";
    if (replicate > 0 && r > 0) {
      throw Error(shown + ": replicate runs one rank's trace on every rank, but " + shown +
                  " is a second rank's (leave replicate out to run each rank's own file)");
    }
    std::string bytes;
    try {
      bytes = read_input_file(path, kChakraInput);
    } catch (const Error& e) {
      throw Error(shown + ": " + e.what());
    }
    traces.push_back(parse_rank(bytes, shown));
    if (replicate == 0) match.see(r, bytes, traces.back());
    files.push_back(path);
  }
  if (traces.empty()) {
    throw Error(shown_prefix + ": no trace files " + shown_prefix + ".0.et, " + shown_prefix + ".1.et, ...");
  }
  if (replicate > 0) return replicated(std::move(traces.front()), replicate, files);
  if (traces.size() < 2) {
    throw Error(shown_prefix + ": only one rank's trace (" + shown_prefix +
                ".0.et); a fabric needs two: give replicate: N to run it on N ranks (each rank the same trace, "
                "every process group all N ranks)");
  }
  ChakraGraph graph = graph_of(std::move(traces), match);
  graph.files = std::move(files);
  return graph;
}

ChakraGraph chakra_graph_from_bytes(const std::vector<std::string>& ranks, const std::vector<std::string>& shown,
                                    int replicate) {
  if (replicate > 0) {
    if (ranks.size() != 1 || shown.size() != 1) throw Error("Chakra traces: replicate takes one rank's trace");
    return replicated(parse_rank(ranks[0], shown[0]), replicate, {});
  }
  if (ranks.size() < 2 || shown.size() != ranks.size()) throw Error("Chakra traces: at least two ranks, each named");
  std::vector<RankTrace> traces;
  ExportMatch match(ranks.size());
  for (size_t r = 0; r < ranks.size(); ++r) {
    traces.push_back(parse_rank(ranks[r], shown[r]));
    match.see(r, ranks[r], traces.back());
  }
  return graph_of(std::move(traces), match);
}

}  // namespace photonsim
