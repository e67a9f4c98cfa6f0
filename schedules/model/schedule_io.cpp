#include <cstdint>
#include "schedules/model/schedule_io.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/input_file.h"
#include "schedule.pb.h"

namespace photonsim {

namespace {

constexpr uint32_t kEndMarker = 0x31534D50;

// Keeps the first text-format error (1-based line:column) for our own message;
// libprotobuf would otherwise log it to stderr.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override {
    if (first_.empty()) first_ = std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " + message;
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
  const std::string& first() const { return first_; }

 private:
  std::string first_;
};

bool is_text_path(const std::string& path) {
  for (const char* ext : {".pbtxt", ".textproto", ".txtpb"}) {
    const std::string e(ext);
    if (path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0) return true;
  }
  return false;
}

proto::Schedule to_proto(const Schedule& s) {
  proto::Schedule out;
  out.set_collective(to_string(s.collective()));
  out.set_algorithm(s.algorithm());
  out.set_planner(s.planner());
  out.set_gpus(static_cast<uint32_t>(s.gpus()));
  out.set_message_bytes(static_cast<uint64_t>(s.message().count()));
  out.set_initial_topology(s.initial_topology());
  out.set_blocks(s.blocks());
  out.set_root(static_cast<uint32_t>(s.root()));
  for (Bytes b : s.block_sizes()) out.add_block_bytes(static_cast<uint64_t>(b.count()));
  if (s.block_parts() > 1) out.set_block_parts(s.block_parts());
  if (s.custom()) out.set_custom(true);
  for (const Topology& t : s.topologies()) {
    proto::Topology* pt = out.add_topologies();
    pt->set_name(t.name());
    pt->set_gpus(static_cast<uint32_t>(t.gpus()));
    for (const Edge& e : t.edges()) {
      proto::Edge* pe = pt->add_edges();
      pe->set_src(e.first);
      pe->set_dst(e.second);
    }
  }
  for (const Step& step : s.steps()) {
    proto::Step* ps = out.add_steps();
    ps->set_topology(step.topology);
    for (const Transfer& x : step.transfers) {
      proto::Transfer* px = ps->add_transfers();
      px->set_src(x.src);
      px->set_dst(x.dst);
      px->set_bytes(static_cast<uint64_t>(x.bytes.count()));
      for (Node v : x.path) px->add_path(v);
      for (uint32_t b : x.blocks) px->add_blocks(b);
      if (x.counterclockwise) px->set_counterclockwise(true);
      px->set_op(x.op == TransferOp::reduce ? proto::REDUCE : proto::COPY);
      for (const Route& r : x.routes) {
        proto::Route* pr = px->add_routes();
        for (Node v : r.path) pr->add_path(v);
        pr->set_bytes(static_cast<uint64_t>(r.bytes.count()));
      }
    }
  }
  proto::Prediction* pp = out.mutable_prediction();
  pp->set_model(s.prediction().model);
  for (const StepPrediction& sp : s.prediction().steps) {
    proto::StepPrediction* q = pp->add_steps();
    q->set_reconfiguration_ps(sp.reconfiguration.picoseconds());
    q->set_startup_ps(sp.startup.picoseconds());
    q->set_propagation_ps(sp.propagation.picoseconds());
    q->set_transmission_ps(sp.transmission.picoseconds());
  }
  out.set_end_marker(kEndMarker);
  return out;
}

// The fields before the topologies; `where` prefixes every message.
ScheduleParts header_from_proto(const proto::Schedule& in, const std::string& where) {
  if (in.end_marker() != kEndMarker) {
    throw Error(where + "truncated or not a photonsim schedule (end marker missing)");
  }
  if (in.gpus() < 2 || in.gpus() > (1u << 24)) {
    throw Error(where + "gpus must be in 2..16777216, got " + std::to_string(in.gpus()));
  }
  if (in.message_bytes() > static_cast<uint64_t>(INT64_MAX)) throw Error(where + "message_bytes too large");
  // The rule of workload.message: a collective moves at least one byte.
  if (in.message_bytes() == 0) throw Error(where + "message_bytes must be positive, as workload.message (got 0)");
  ScheduleParts parts;
  try {
    parts.collective = parse_collective(in.collective());
  } catch (const Error& e) {
    throw Error(where + e.what());
  }
  parts.algorithm = in.algorithm();
  parts.planner = in.planner();
  parts.gpus = static_cast<int>(in.gpus());
  parts.message = Bytes(static_cast<int64_t>(in.message_bytes()));
  parts.initial_topology = in.initial_topology();
  parts.blocks = in.blocks();
  if (in.root() >= in.gpus()) throw Error(where + "root " + std::to_string(in.root()) + " is not a node");
  parts.root = static_cast<int>(in.root());
  for (uint64_t b : in.block_bytes()) {
    if (b > static_cast<uint64_t>(INT64_MAX)) throw Error(where + "block size " + std::to_string(b) + " out of range");
    parts.block_sizes.push_back(Bytes(static_cast<int64_t>(b)));
  }
  parts.block_parts = std::max<uint32_t>(1, in.block_parts());
  parts.custom = in.custom();
  return parts;
}

Topology topology_from_proto(const proto::Topology& pt, uint32_t gpus, const std::string& where) {
  if (pt.gpus() != gpus) {
    throw Error(where + "topology '" + pt.name() + "' has " + std::to_string(pt.gpus()) + " GPUs, schedule has " +
                std::to_string(gpus));
  }
  std::vector<Edge> edges;
  for (const proto::Edge& e : pt.edges()) edges.push_back({e.src(), e.dst()});
  try {
    return Topology(pt.name(), static_cast<int>(pt.gpus()), std::move(edges));
  } catch (const Error& e) {
    throw Error(where + e.what());
  }
}

Transfer transfer_from_proto(const proto::Transfer& px, const std::string& where) {
  if (px.bytes() > static_cast<uint64_t>(INT64_MAX)) throw Error(where + "transfer bytes too large");
  Transfer x;
  x.src = px.src();
  x.dst = px.dst();
  x.bytes = Bytes(static_cast<int64_t>(px.bytes()));
  x.path.assign(px.path().begin(), px.path().end());
  x.blocks.assign(px.blocks().begin(), px.blocks().end());
  x.counterclockwise = px.counterclockwise();
  x.op = px.op() == proto::REDUCE ? TransferOp::reduce : TransferOp::copy;
  for (const proto::Route& pr : px.routes()) {
    if (pr.bytes() > static_cast<uint64_t>(INT64_MAX)) throw Error(where + "route bytes too large");
    x.routes.push_back(
        Route{std::vector<Node>(pr.path().begin(), pr.path().end()), Bytes(static_cast<int64_t>(pr.bytes()))});
  }
  return x;
}

StepPrediction step_prediction_from_proto(const proto::StepPrediction& q) {
  StepPrediction sp;
  sp.reconfiguration = Time::ps(q.reconfiguration_ps());
  sp.startup = Time::ps(q.startup_ps());
  sp.propagation = Time::ps(q.propagation_ps());
  sp.transmission = Time::ps(q.transmission_ps());
  return sp;
}

Schedule from_proto(const proto::Schedule& in, const std::string& source) {
  const std::string where = "schedule '" + source + "': ";
  ScheduleParts parts = header_from_proto(in, where);
  for (const proto::Topology& pt : in.topologies())
    parts.topologies.push_back(topology_from_proto(pt, in.gpus(), where));
  for (const proto::Step& ps : in.steps()) {
    Step step;
    step.topology = ps.topology();
    for (const proto::Transfer& px : ps.transfers()) step.transfers.push_back(transfer_from_proto(px, where));
    parts.steps.push_back(std::move(step));
  }
  parts.prediction.model = in.prediction().model();
  for (const proto::StepPrediction& q : in.prediction().steps()) {
    parts.prediction.steps.push_back(step_prediction_from_proto(q));
  }
  try {
    return Schedule(std::move(parts));
  } catch (const Error& e) {
    throw Error(where + e.what());
  }
}

}  // namespace

std::string serialize_schedule(const Schedule& schedule, bool text_format) {
  const proto::Schedule message = to_proto(schedule);
  std::string out;
  if (text_format) {
    google::protobuf::TextFormat::PrintToString(message, &out);
  } else {
    message.SerializeToString(&out);
  }
  return out;
}

Schedule parse_schedule(const std::string& bytes, bool text_format, const std::string& source) {
  proto::Schedule message;
  bool ok = false;
  FirstErrorCollector errors;
  {
    // Nothing below the CLI prints: libprotobuf's own log lines are silenced
    // while parsing, and what went wrong is reported in the Error instead.
    const google::protobuf::LogSilencer silence;
    if (text_format) {
      google::protobuf::TextFormat::Parser parser;
      parser.RecordErrorsTo(&errors);
      ok = parser.ParseFromString(bytes, &message);
    } else {
      ok = message.ParseFromString(bytes);
    }
  }
  if (!ok) {
    if (text_format) {
      throw Error("schedule '" + source + "': text-format protobuf error at " + errors.first());
    }
    throw Error("schedule '" + source + "': cannot parse binary protobuf (truncated or corrupt file)");
  }
  return from_proto(message, source);
}

void write_schedule(const Schedule& schedule, const std::string& path) {
  write_file_atomically(path, serialize_schedule(schedule, is_text_path(path)));
}

Schedule read_schedule(const std::string& path) {
  return parse_schedule(read_input_file(path, kScheduleInput), is_text_path(path), path);
}

}  // namespace photonsim
