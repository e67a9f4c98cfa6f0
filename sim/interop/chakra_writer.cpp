#include "sim/interop/chakra_writer.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>

#include "chakra_et.pb.h"
#include "core/error.h"
#include "schedules/model/schedule_io.h"

namespace photonsim {

namespace {

constexpr int64_t kPicosecondsPerMicrosecond = 1'000'000;

void add_int(chakra::Node& node, const char* name, int64_t value) {
  chakra::AttributeProto* a = node.add_attr();
  a->set_name(name);
  a->set_int64_val(value);
}

void add_bool(chakra::Node& node, const char* name, bool value) {
  chakra::AttributeProto* a = node.add_attr();
  a->set_name(name);
  a->set_bool_val(value);
}

class RankWriter {
 public:
  // `schedule`: the binary .pb rank 0's metadata carries (empty: none).
  explicit RankWriter(const std::string& schedule) {
    chakra::GlobalMetadata metadata;
    metadata.set_version("0.0.4");
    if (!schedule.empty()) {
      chakra::AttributeProto* a = metadata.add_attr();
      a->set_name(kChakraScheduleAttr);
      a->set_bytes_val(schedule);
    }
    put(metadata);
  }

  chakra::Node& begin(const std::string& name, chakra::NodeType type) {
    node_.Clear();
    node_.set_id(next_id_++);
    node_.set_name(name);
    node_.set_type(type);
    for (uint64_t d : deps_) node_.add_data_deps(d);
    add_bool(node_, "is_cpu_op", false);
    return node_;
  }
  void end() {
    put(node_);
    step_nodes_.push_back(node_.id());
  }
  // The step's nodes so far become what the next step's depend on.
  void close_step() {
    if (!step_nodes_.empty()) deps_ = std::move(step_nodes_);
    step_nodes_.clear();
  }
  // After a reconfiguration node: the step's transfers wait for it alone.
  void after_last() { deps_ = {step_nodes_.back()}; }
  std::string finish() { return std::move(bytes_); }

 private:
  void put(const google::protobuf::MessageLite& m) {
    // Appends: the stream's coded writer trims the string to what it wrote.
    google::protobuf::io::StringOutputStream stream(&bytes_);
    if (!google::protobuf::util::SerializeDelimitedToZeroCopyStream(m, &stream)) {
      throw Error("Chakra export: a node did not serialize");
    }
  }

  std::string bytes_;
  chakra::Node node_;
  uint64_t next_id_ = 0;
  std::vector<uint64_t> deps_, step_nodes_;
};

}  // namespace

std::vector<std::string> chakra_traces_of(const Schedule& schedule) {
  const int n = schedule.gpus();
  std::vector<RankWriter> ranks;
  ranks.reserve(static_cast<size_t>(n));
  ranks.emplace_back(serialize_schedule(schedule, false));
  for (int r = 1; r < n; ++r) ranks.emplace_back(std::string());
  const auto& steps = schedule.steps();
  const auto& predicted = schedule.prediction().steps;
  for (size_t s = 0; s < steps.size(); ++s) {
    const Time reconfiguration = s < predicted.size() ? predicted[s].reconfiguration : Time::zero();
    const std::string step = "step" + std::to_string(s);
    if (reconfiguration > Time::zero()) {
      const int64_t ps = reconfiguration.picoseconds();
      for (RankWriter& w : ranks) {
        chakra::Node& node = w.begin(step + ".reconfigure", chakra::COMP_NODE);
        node.set_duration_micros(
            static_cast<uint64_t>((ps + kPicosecondsPerMicrosecond - 1) / kPicosecondsPerMicrosecond));
        add_int(node, "duration_ps", ps);
        add_bool(node, kChakraReconfigurationAttr, true);
        w.end();
        w.after_last();
      }
    }
    for (const Transfer& t : steps[s].transfers) {
      if (t.bytes.count() == 0) continue;  // moves nothing (Chakra sends carry a positive comm_size)
      const std::string pair = std::to_string(t.src) + "->" + std::to_string(t.dst);
      for (const bool send : {true, false}) {
        RankWriter& w = ranks[send ? t.src : t.dst];
        chakra::Node& node =
            w.begin(step + (send ? ".send." : ".recv.") + pair, send ? chakra::COMM_SEND_NODE : chakra::COMM_RECV_NODE);
        add_int(node, "comm_src", static_cast<int64_t>(t.src));
        add_int(node, "comm_dst", static_cast<int64_t>(t.dst));
        add_int(node, "comm_size", t.bytes.count());
        add_int(node, "comm_tag", static_cast<int64_t>(s));
        w.end();
      }
    }
    for (RankWriter& w : ranks) w.close_step();
  }
  std::vector<std::string> out;
  for (RankWriter& w : ranks) out.push_back(w.finish());
  return out;
}

}  // namespace photonsim
