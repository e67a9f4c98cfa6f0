#include "schedules/msccl/mscclpp_plan_reader.h"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "core/error.h"
#include "schedules/msccl/chunk_layout.h"
#include "core/json_value.h"
#include "schedules/msccl/levelled_transfer.h"

namespace photonsim {
namespace {

constexpr int kPlanMaxGpus = 1 << 16;
constexpr int64_t kMaxChunks = int64_t{1} << 28;
constexpr int kMaxIds = 1 << 20;

enum class Role : uint8_t { nop, barrier, signal, wait, flush, data, sem_acquire, sem_release, pipeline, multimem };
enum class Channel : uint8_t { none, memory, port };

// What an op does, as the executor's handlers read its buffers.
struct OpKind {
  const char* name;
  Role role;
  bool reduces = false;
  int packet_reads_from = -1;   // src_buff from here are LL packets it waits for
  int packet_writes_from = -1;  // dst_buff from here are written as LL packets
  bool signals = false;         // pws, pwsf: a signal on its channels after the put
};

constexpr OpKind kPlanOpKinds[] = {
    {"nop", Role::nop},
    {"barrier", Role::barrier},
    {"put", Role::data},
    {"pws", Role::data, false, -1, -1, true},
    {"pwsf", Role::data, false, -1, -1, true},
    {"get", Role::data},
    {"copy", Role::data},
    {"signal", Role::signal},
    {"rlxsignal", Role::signal},
    {"wait", Role::wait},
    {"rlxwait", Role::wait},
    {"flush", Role::flush},
    {"re", Role::data, true},
    {"res", Role::data, true},
    {"rre", Role::data, true},
    {"rres", Role::data, true},
    {"ppkt", Role::data, false, -1, 0},
    {"rppkt", Role::data, false, 0, 0},
    {"cpkt", Role::data, false, -1, 0},
    {"upkt", Role::data, false, 0, -1},
    {"respkt", Role::data, true, 1, 1},
    {"repkt", Role::data, true, 1, -1},
    {"recpkt", Role::data, true, 1, 1},
    {"recspkt", Role::data, true, 1, 1},
    {"glres", Role::multimem},
    {"gstore", Role::multimem},
    {"gstorepkt", Role::multimem},
    {"pipeline", Role::pipeline},
    {"sem_acquire", Role::sem_acquire},
    {"sem_release", Role::sem_release},
};

std::string plan_kind_names() {
  std::string out;
  for (const OpKind& k : kPlanOpKinds) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

struct BufferRef {
  int rank = 0;  // the GPU whose memory it is
  bool remote = false;
  ChunkBuffer buffer = ChunkBuffer::input;
  int64_t index = 0;
  int64_t size = 0;
};

struct ChannelEnd {
  int peer = 0;
  int tag = 0;  // the connection's number among this GPU's connections to peer
};

struct PlanOp {
  const OpKind* kind = nullptr;
  int gpu = 0;
  int tb = 0;
  int line = 0;
  std::string where;
  Channel channel = Channel::none;
  std::vector<ChannelEnd> channels;
  std::vector<BufferRef> src;
  std::vector<BufferRef> dst;
  std::vector<int> semaphores;
  int barrier = -1;
  int barrier_blocks = 0;
  int group_size = 1;  // tbg_info.tbg_size
  std::string group_key;
};

struct PlanThreadBlock {
  int id = 0;
  std::vector<int> channel_ids[3];  // by Channel: indexes into the GPU's channels of that type
  std::vector<int> remote_ids[3];   // by Channel: indexes into the GPU's remote_buffers
  std::vector<PlanOp> ops;
  // Running state.
  size_t next = 0;
  int64_t level = 0;   // where its next transfer starts
  int64_t landed = 0;  // when every transfer it issued has arrived
  bool at_barrier = false;
  int64_t barrier_generation = 0;
};

struct PlanGpu {
  int id = 0;
  int64_t chunks[3] = {0, 0, 0};
  std::vector<ChannelEnd> channels[3];  // by Channel, in the executor's order
  std::vector<std::pair<int, ChunkBuffer>> remote_buffers;
  std::vector<int64_t> semaphore_init;
  std::vector<PlanThreadBlock> tbs;
};

struct PlanContent {
  uint32_t block = kNoBlock;
  int64_t copied_by = -1;  // the transfer whose copy put it here, if any
  int64_t ready = 0;       // the level from which it is there
  bool packet = false;     // written as LL packets in this run
};

struct Barrier {
  int blocks = 0;
  int64_t generation = 0;
  int arrived = 0;
  int64_t level = 0;
  std::vector<int64_t> released;  // by generation: the level it released
};

class PlanReader {
 public:
  PlanReader(std::string_view text, const std::string& source) : source_(source), root_(parse_json(text, source)) {}

  MscclProgram read() {
    read_header();
    read_gpus();
    run();
    program_.levels = by_level(transfers_);
    return std::move(program_);
  }

 private:
  [[noreturn]] void fail(int line, const std::string& where, const std::string& what) const {
    throw Error(source_ + ":" + std::to_string(line) + ": " + (where.empty() ? "" : where + ": ") + what);
  }

  const JsonValue& member(const JsonValue& object, const std::string& where, const char* key,
                          JsonValue::Kind kind) const {
    const JsonValue* v = object.find(key);
    if (!v) fail(object.line, where, "the member '" + std::string(key) + "' is missing");
    if (v->kind != kind)
      fail(v->line, where,
           "'" + std::string(key) + "' must be " + json_kind_name(kind) + " (got " + json_kind_name(v->kind) + ")");
    return *v;
  }

  int64_t integer(const JsonValue& v, const std::string& where, const std::string& what, int64_t min,
                  int64_t max) const {
    const std::optional<int64_t> out = v.as_int64();
    if (v.kind != JsonValue::Kind::number || !out)
      fail(v.line, where,
           what + " must be an integer (got " + (v.kind == JsonValue::Kind::number ? v.text : json_kind_name(v.kind)) +
               ")");
    if (*out < min || *out > max)
      fail(v.line, where,
           what + " must be in " + std::to_string(min) + ".." + std::to_string(max) + " (got " + v.text + ")");
    return *out;
  }

  int64_t integer_member(const JsonValue& object, const std::string& where, const char* key, int64_t min,
                         int64_t max) const {
    const JsonValue* v = object.find(key);
    if (!v) fail(object.line, where, "the member '" + std::string(key) + "' is missing");
    return integer(*v, where, "'" + std::string(key) + "'", min, max);
  }

  const std::string& string_member(const JsonValue& object, const std::string& where, const char* key) const {
    return member(object, where, key, JsonValue::Kind::string).text;
  }

  // --- the plan's header ----------------------------------------------------

  void read_header() {
    if (root_.kind != JsonValue::Kind::object)
      fail(root_.line, "",
           "an MSCCL++ execution plan is a JSON object (got " + std::string(json_kind_name(root_.kind)) + ")");
    if (const JsonValue* name = root_.find("name"); name && name->kind == JsonValue::Kind::string)
      program_.name = name->text;
    const std::string& coll = string_member(root_, "", "collective");
    if (coll == "allreduce") {
      program_.collective = Collective::allreduce;
    } else if (coll == "allgather") {
      program_.collective = Collective::allgather;
    } else if (coll == "reducescatter" || coll == "reduce_scatter") {
      program_.collective = Collective::reducescatter;
    } else if (coll == "alltoall") {
      program_.collective = Collective::alltoall;
    } else if (coll == "custom" || coll == "sendrecv" || coll == "test") {
      program_.custom = true;  // the collective is the workload's (msccl_algorithm.h)
    } else {
      fail(member(root_, "", "collective", JsonValue::Kind::string).line, "",
           "'collective' is " + quoted(coll) +
               "; photonsim reads allreduce, allgather, reducescatter, alltoall and custom (also sendrecv, test)");
    }
    inplace_ = member(root_, "", "inplace", JsonValue::Kind::boolean).boolean;
    program_.min_bytes = read_size("min_message_size");
    program_.max_bytes = read_size("max_message_size");
    if (program_.max_bytes != 0 && program_.max_bytes < program_.min_bytes)
      fail(root_.find("max_message_size")->line, "",
           "'max_message_size' (" + std::to_string(program_.max_bytes) + ") is below 'min_message_size' (" +
               std::to_string(program_.min_bytes) + ")");
  }

  // A message-size bound: 0 when absent; the executor's default maximum
  // (2^64 - 1) and anything past int64 mean no bound (0 for max_bytes).
  int64_t read_size(const char* key) const {
    const JsonValue* v = root_.find(key);
    if (!v) return 0;
    const std::optional<uint64_t> out = v->as_uint64();
    if (v->kind != JsonValue::Kind::number || !out)
      fail(v->line, "",
           "'" + std::string(key) + "' must be a non-negative integer (got " +
               (v->kind == JsonValue::Kind::number ? v->text : json_kind_name(v->kind)) + ")");
    if (*out > static_cast<uint64_t>(INT64_MAX)) return std::string_view(key) == "max_message_size" ? 0 : INT64_MAX;
    return static_cast<int64_t>(*out);
  }

  // --- GPUs, channels, buffers ------------------------------------------------

  void read_gpus() {
    const JsonValue& gpus = member(root_, "", "gpus", JsonValue::Kind::array);
    if (gpus.items.size() < 2 || gpus.items.size() > static_cast<size_t>(kPlanMaxGpus))
      fail(gpus.line, "",
           "'gpus' must list 2.." + std::to_string(kPlanMaxGpus) + " GPUs (got " + std::to_string(gpus.items.size()) + ")");
    n_ = static_cast<int>(gpus.items.size());
    program_.gpus = n_;
    gpus_.resize(static_cast<size_t>(n_));
    for (int g = 0; g < n_; ++g) read_gpu_header(gpus.items[static_cast<size_t>(g)], g);
    set_blocks(gpus);
    layout_ = ChunkLayout(program_.collective, program_.custom, n_, chunks_, inplace_, 0);
    for (int g = 0; g < n_; ++g) read_threadblocks(gpus.items[static_cast<size_t>(g)], g);
  }

  static std::string gpu_where(int g) { return "gpus[" + std::to_string(g) + "]"; }

  void read_gpu_header(const JsonValue& e, int g) {
    const std::string where = gpu_where(g);
    if (e.kind != JsonValue::Kind::object)
      fail(e.line, where, "a GPU is an object (got " + std::string(json_kind_name(e.kind)) + ")");
    PlanGpu& gpu = gpus_[static_cast<size_t>(g)];
    gpu.id = static_cast<int>(integer_member(e, where, "id", 0, n_ - 1));
    if (gpu.id != g) fail(e.find("id")->line, where, "'id' must be " + std::to_string(g) + ": GPUs are listed by rank");
    const char* keys[3] = {"input_chunks", "output_chunks", "scratch_chunks"};
    for (int b = 0; b < 3; ++b) gpu.chunks[b] = integer_member(e, where, keys[b], 0, kMaxChunks);
    read_channels(e, gpu, where);
    read_remote_buffers(e, gpu, where);
    if (const JsonValue* sems = e.find("semaphores")) {
      if (sems->kind != JsonValue::Kind::array) fail(sems->line, where, "'semaphores' must be an array");
      if (sems->items.size() > static_cast<size_t>(kMaxIds)) fail(sems->line, where, "'semaphores' lists too many");
      for (const JsonValue& s : sems->items) {
        const std::string sw = where + ".semaphores[" + std::to_string(gpu.semaphore_init.size()) + "]";
        if (s.kind != JsonValue::Kind::object) fail(s.line, sw, "a semaphore is an object");
        gpu.semaphore_init.push_back(integer_member(s, sw, "init_value", 0, kMaxIds));
      }
    }
  }

  Channel channel_type(const JsonValue& v, const std::string& where, const std::string& what, bool none_ok) const {
    if (v.kind != JsonValue::Kind::string) fail(v.line, where, what + " must be a string");
    if (v.text == "memory") return Channel::memory;
    if (v.text == "port") return Channel::port;
    if (v.text == "none" && none_ok) return Channel::none;
    if (v.text == "switch")
      fail(v.line, where,
           what + " is \"switch\" (NVLS multimem): photonsim's fabrics have no in-switch reduction or multicast");
    fail(v.line, where, what + " is " + quoted(v.text) + "; valid: memory, port");
  }

  ChunkBuffer buffer_type(const JsonValue& v, const std::string& where, const std::string& what) const {
    if (v.kind == JsonValue::Kind::string) {
      if (v.text == "i") return ChunkBuffer::input;
      if (v.text == "o") return ChunkBuffer::output;
      if (v.text == "s") return ChunkBuffer::scratch;
    }
    fail(v.line, where,
         what + " must be \"i\", \"o\" or \"s\" (got " +
             (v.kind == JsonValue::Kind::string ? quoted(v.text) : std::string(json_kind_name(v.kind))) + ")");
  }

  void read_channels(const JsonValue& e, PlanGpu& gpu, const std::string& where) {
    const JsonValue& channels = member(e, where, "channels", JsonValue::Kind::array);
    // The executor connects memory channels first, then port channels; the
    // k-th connection between two GPUs (per pair) is tag k on both sides.
    std::map<int, int> tags;
    for (const Channel type : {Channel::memory, Channel::port}) {
      for (size_t c = 0; c < channels.items.size(); ++c) {
        const JsonValue& ch = channels.items[c];
        const std::string cw = where + ".channels[" + std::to_string(c) + "]";
        if (ch.kind != JsonValue::Kind::object) fail(ch.line, cw, "a channel is an object");
        const JsonValue& t = member(ch, cw, "channel_type", JsonValue::Kind::string);
        if (t.text == "switch") continue;  // NVLS groups: refused where an op uses them
        if (channel_type(t, cw, "'channel_type'", false) != type) continue;
        const JsonValue& peers = member(ch, cw, "connected_to", JsonValue::Kind::array);
        for (const JsonValue& p : peers.items) {
          const int peer = static_cast<int>(integer(p, cw, "a 'connected_to' rank", 0, n_ - 1));
          if (peer == gpu.id) fail(p.line, cw, "'connected_to' names the GPU itself (" + std::to_string(peer) + ")");
          if (gpu.channels[static_cast<int>(type)].size() >= static_cast<size_t>(kMaxIds))
            fail(p.line, cw, "too many channels");
          gpu.channels[static_cast<int>(type)].push_back({peer, tags[peer]++});
        }
      }
    }
  }

  void read_remote_buffers(const JsonValue& e, PlanGpu& gpu, const std::string& where) {
    const JsonValue* buffers = e.find("remote_buffers");
    if (!buffers) return;
    if (buffers->kind != JsonValue::Kind::array) fail(buffers->line, where, "'remote_buffers' must be an array");
    if (buffers->items.size() > static_cast<size_t>(kMaxIds)) fail(buffers->line, where, "too many remote buffers");
    for (size_t r = 0; r < buffers->items.size(); ++r) {
      const JsonValue& b = buffers->items[r];
      const std::string bw = where + ".remote_buffers[" + std::to_string(r) + "]";
      if (b.kind != JsonValue::Kind::object) fail(b.line, bw, "a remote buffer is an object");
      const int rank = static_cast<int>(integer_member(b, bw, "rank", 0, n_ - 1));
      if (rank == gpu.id) fail(b.find("rank")->line, bw, "'rank' names the GPU itself (" + std::to_string(rank) + ")");
      const JsonValue* type = b.find("type");
      if (!type) fail(b.line, bw, "the member 'type' is missing");
      gpu.remote_buffers.emplace_back(rank, buffer_type(*type, bw, "'type'"));
    }
  }

  // The collective's blocks from GPU 0's buffers (every GPU must agree).
  void set_blocks(const JsonValue& gpus) {
    const JsonValue& first = gpus.items.front();
    const PlanGpu& g0 = gpus_.front();
    for (const PlanGpu& g : gpus_) {
      for (int b = 0; b < 2; ++b) {
        if (g.chunks[b] != g0.chunks[b])
          fail(gpus.items[static_cast<size_t>(g.id)].line, gpu_where(g.id),
               std::string(b == 0 ? "'input_chunks'" : "'output_chunks'") + " is " + std::to_string(g.chunks[b]) +
                   ", GPU 0's is " + std::to_string(g0.chunks[b]) + ": every GPU's buffers are cut alike");
      }
    }
    const int64_t in = g0.chunks[0];
    const int64_t out = g0.chunks[1];
    const std::string where = gpu_where(0);
    if (in < 1 && !(program_.collective == Collective::allgather && !program_.custom))
      fail(first.line, where, "'input_chunks' must be at least 1 for " + collective_name());
    const auto multiple_of_n = [&](int64_t chunks, const char* key) {
      if (chunks < n_ || chunks % n_ != 0)
        fail(first.line, where,
             "'" + std::string(key) + "' must be a multiple of the " + std::to_string(n_) + " GPUs for " +
                 collective_name() + " (got " + std::to_string(chunks) + ")");
      return chunks / n_;
    };
    if (program_.custom) {
      chunks_ = in;
      const uint64_t blocks = static_cast<uint64_t>(n_) * static_cast<uint64_t>(in);
      if (blocks > static_cast<uint64_t>(kMaxChunks))
        fail(first.line, where, "the GPUs x 'input_chunks' = " + std::to_string(blocks) + " blocks is too many");
      program_.blocks = static_cast<uint32_t>(blocks);
      return;
    }
    switch (program_.collective) {
      case Collective::allgather: {
        const int64_t factor = multiple_of_n(out, "output_chunks");
        if (in != factor)
          fail(first.line, where,
               "'input_chunks' must be 'output_chunks' / GPUs = " + std::to_string(factor) + " for allgather (got " +
                   std::to_string(in) + ")");
        chunks_ = out;
        program_.blocks = static_cast<uint32_t>(out);
        program_.block_parts = static_cast<uint32_t>(factor);
        break;
      }
      case Collective::reducescatter: {
        const int64_t factor = multiple_of_n(in, "input_chunks");
        chunks_ = in;
        program_.blocks = static_cast<uint32_t>(in);
        program_.block_parts = static_cast<uint32_t>(factor);
        break;
      }
      case Collective::alltoall: {
        const int64_t factor = multiple_of_n(in, "input_chunks");
        const uint64_t blocks = static_cast<uint64_t>(n_) * static_cast<uint64_t>(in);
        if (blocks > static_cast<uint64_t>(kMaxChunks))
          fail(first.line, where, "GPUs x 'input_chunks' = " + std::to_string(blocks) + " blocks is too many");
        chunks_ = in;
        program_.blocks = static_cast<uint32_t>(blocks);
        program_.block_parts = static_cast<uint32_t>(factor);
        break;
      }
      default:
        chunks_ = in;
        program_.blocks = static_cast<uint32_t>(in);
        break;
    }
  }

  std::string collective_name() const { return program_.custom ? "custom" : to_string(program_.collective); }

  // --- thread blocks and ops --------------------------------------------------

  void read_threadblocks(const JsonValue& e, int g) {
    const std::string where = gpu_where(g);
    PlanGpu& gpu = gpus_[static_cast<size_t>(g)];
    const JsonValue& tbs = member(e, where, "threadblocks", JsonValue::Kind::array);
    if (tbs.items.size() > static_cast<size_t>(kMaxIds)) fail(tbs.line, where, "too many thread blocks");
    gpu.tbs.resize(tbs.items.size());
    std::vector<bool> seen(tbs.items.size(), false);
    for (size_t t = 0; t < tbs.items.size(); ++t) {
      const JsonValue& tb = tbs.items[t];
      const std::string tw = where + ".threadblocks[" + std::to_string(t) + "]";
      if (tb.kind != JsonValue::Kind::object) fail(tb.line, tw, "a thread block is an object");
      PlanThreadBlock& block = gpu.tbs[t];
      block.id = static_cast<int>(integer_member(tb, tw, "id", 0, static_cast<int64_t>(tbs.items.size()) - 1));
      if (seen[static_cast<size_t>(block.id)])
        fail(tb.find("id")->line, tw, "a second thread block with 'id' " + std::to_string(block.id));
      seen[static_cast<size_t>(block.id)] = true;
      read_tb_channels(tb, gpu, block, tw);
      read_tb_remote_refs(tb, gpu, block, tw);
      const JsonValue& ops = member(tb, tw, "ops", JsonValue::Kind::array);
      for (size_t k = 0; k < ops.items.size(); ++k) {
        const std::string ow = tw + ".ops[" + std::to_string(k) + "]";
        read_op(ops.items[k], gpu, block, static_cast<int>(t), ow, false);
      }
    }
  }

  void read_tb_channels(const JsonValue& tb, const PlanGpu& gpu, PlanThreadBlock& block, const std::string& where) {
    const JsonValue* channels = tb.find("channels");
    if (!channels) return;
    if (channels->kind != JsonValue::Kind::array) fail(channels->line, where, "'channels' must be an array");
    for (size_t c = 0; c < channels->items.size(); ++c) {
      const JsonValue& ch = channels->items[c];
      const std::string cw = where + ".channels[" + std::to_string(c) + "]";
      if (ch.kind != JsonValue::Kind::object) fail(ch.line, cw, "a channel reference is an object");
      const JsonValue& t = member(ch, cw, "channel_type", JsonValue::Kind::string);
      if (t.text == "switch") continue;  // refused where an op uses it
      const Channel type = channel_type(t, cw, "'channel_type'", false);
      const auto& declared = gpu.channels[static_cast<int>(type)];
      for (const JsonValue& id : member(ch, cw, "channel_ids", JsonValue::Kind::array).items) {
        const int64_t max = static_cast<int64_t>(declared.size()) - 1;
        if (max < 0)
          fail(id.line, cw,
               "'channel_ids' names a " + t.text + " channel, but GPU " + std::to_string(gpu.id) + " declares none");
        block.channel_ids[static_cast<int>(type)].push_back(
            static_cast<int>(integer(id, cw, "a '" + t.text + "' channel id", 0, max)));
        if (block.channel_ids[static_cast<int>(type)].size() > static_cast<size_t>(kMaxIds))
          fail(id.line, cw, "too many channel ids");
      }
    }
  }

  void read_tb_remote_refs(const JsonValue& tb, const PlanGpu& gpu, PlanThreadBlock& block, const std::string& where) {
    const JsonValue* refs = tb.find("remote_buffer_refs");
    if (!refs) return;
    if (refs->kind != JsonValue::Kind::array) fail(refs->line, where, "'remote_buffer_refs' must be an array");
    for (size_t r = 0; r < refs->items.size(); ++r) {
      const JsonValue& ref = refs->items[r];
      const std::string rw = where + ".remote_buffer_refs[" + std::to_string(r) + "]";
      if (ref.kind != JsonValue::Kind::object) fail(ref.line, rw, "a remote buffer reference is an object");
      const Channel type = channel_type(member(ref, rw, "access_channel_type", JsonValue::Kind::string), rw,
                                        "'access_channel_type'", false);
      for (const JsonValue& id : member(ref, rw, "remote_buffer_ids", JsonValue::Kind::array).items) {
        const int64_t max = static_cast<int64_t>(gpu.remote_buffers.size()) - 1;
        if (max < 0)
          fail(id.line, rw,
               "'remote_buffer_ids' names a remote buffer, but GPU " + std::to_string(gpu.id) +
                   " declares none in 'remote_buffers'");
        block.remote_ids[static_cast<int>(type)].push_back(
            static_cast<int>(integer(id, rw, "a remote buffer id", 0, max)));
        if (block.remote_ids[static_cast<int>(type)].size() > static_cast<size_t>(kMaxIds))
          fail(id.line, rw, "too many remote buffer ids");
      }
    }
  }

  void read_op(const JsonValue& e, const PlanGpu& gpu, PlanThreadBlock& block, int tb_index, const std::string& where,
               bool inside_pipeline) {
    if (e.kind != JsonValue::Kind::object) fail(e.line, where, "an op is an object");
    const std::string& name = string_member(e, where, "name");
    PlanOp op;
    for (const OpKind& k : kPlanOpKinds) {
      if (name == k.name) op.kind = &k;
    }
    op.where = where + " (" + (op.kind ? name : quoted(name)) + ")";
    if (!op.kind)
      fail(e.find("name")->line, op.where, "'name' is " + quoted(name) + "; photonsim reads " + plan_kind_names());
    op.gpu = gpu.id;
    op.tb = tb_index;
    op.line = e.line;
    if (op.kind->role == Role::multimem)
      fail(e.line, op.where,
           "an NVLS multimem op: photonsim's fabrics have no in-switch reduction or multicast (an MSCCL++ plan for "
           "memory or port channels runs)");
    if (op.kind->role == Role::pipeline) {
      if (inside_pipeline) fail(e.line, op.where, "a pipeline inside a pipeline");
      const JsonValue& inner = member(e, op.where, "ops", JsonValue::Kind::array);
      for (size_t k = 0; k < inner.items.size(); ++k)
        read_op(inner.items[k], gpu, block, tb_index, where + ".ops[" + std::to_string(k) + "]", true);
      return;
    }
    if (const JsonValue* ct = e.find("channel_type")) op.channel = channel_type(*ct, op.where, "'channel_type'", true);
    if (const JsonValue* ids = e.find("channel_ids")) {
      if (ids->kind != JsonValue::Kind::array) fail(ids->line, op.where, "'channel_ids' must be an array");
      if (op.channel == Channel::none && !ids->items.empty())
        fail(ids->line, op.where, "'channel_ids' needs 'channel_type' memory or port");
      const auto& local = block.channel_ids[static_cast<int>(op.channel)];
      for (const JsonValue& id : ids->items) {
        const int64_t max = static_cast<int64_t>(local.size()) - 1;
        if (max < 0)
          fail(id.line, op.where,
               "'channel_ids' names a channel, but the thread block lists none of this type in its 'channels'");
        const int k = static_cast<int>(integer(id, op.where, "a channel id", 0, max));
        op.channels.push_back(
            gpu.channels[static_cast<int>(op.channel)][static_cast<size_t>(local[static_cast<size_t>(k)])]);
      }
    }
    if (const JsonValue* tbg = e.find("tbg_info")) {
      if (tbg->kind != JsonValue::Kind::object) fail(tbg->line, op.where, "'tbg_info' must be an object");
      op.group_size = static_cast<int>(integer_member(*tbg, op.where + ".tbg_info", "tbg_size", 1, kMaxIds));
      const int64_t id = integer_member(*tbg, op.where + ".tbg_info", "tb_id", 0, op.group_size - 1);
      (void)id;
    }
    switch (op.kind->role) {
      case Role::signal:
      case Role::wait:
      case Role::flush:
        if (op.channels.empty() && op.kind->role != Role::flush)
          fail(e.line, op.where, "a '" + name + "' needs 'channel_type' and 'channel_ids' naming its channels");
        break;
      case Role::barrier:
        op.barrier = static_cast<int>(integer_member(e, op.where, "barrier_id", 0, kMaxIds));
        op.barrier_blocks = static_cast<int>(integer_member(e, op.where, "num_threadblocks", 1, kMaxIds));
        break;
      case Role::sem_acquire:
      case Role::sem_release: {
        const JsonValue& ids = member(e, op.where, "semaphore_ids", JsonValue::Kind::array);
        if (ids.items.empty()) fail(ids.line, op.where, "'semaphore_ids' is empty");
        for (const JsonValue& id : ids.items) {
          const int64_t max = static_cast<int64_t>(gpu.semaphore_init.size()) - 1;
          if (max < 0)
            fail(id.line, op.where,
                 "'semaphore_ids' names a semaphore, but GPU " + std::to_string(gpu.id) +
                     " declares none in 'semaphores'");
          op.semaphores.push_back(static_cast<int>(integer(id, op.where, "a semaphore id", 0, max)));
        }
        break;
      }
      case Role::data:
        read_refs(e, gpu, block, op, "src_buff", op.src);
        read_refs(e, gpu, block, op, "dst_buff", op.dst);
        check_data_op(e, op);
        break;
      default:
        break;
    }
    if (op.group_size > 1) {
      op.group_key = std::to_string(static_cast<int>(op.kind - kPlanOpKinds)) + "/" + std::to_string(op.group_size);
      for (const auto* refs : {&op.src, &op.dst}) {
        for (const BufferRef& r : *refs)
          op.group_key += "/" + std::to_string(r.rank) + ":" + std::to_string(static_cast<int>(r.buffer)) + ":" +
                          std::to_string(r.index) + ":" + std::to_string(r.size);
        op.group_key += "|";
      }
    }
    if (block.ops.size() >= static_cast<size_t>(kMaxIds)) fail(e.line, op.where, "too many ops");
    block.ops.push_back(std::move(op));
  }

  void read_refs(const JsonValue& e, const PlanGpu& gpu, const PlanThreadBlock& block, const PlanOp& op, const char* key,
                 std::vector<BufferRef>& out) const {
    const JsonValue* refs = e.find(key);
    if (!refs)
      fail(e.line, op.where, "the member '" + std::string(key) + "' is missing (a '" + op.kind->name + "' moves data)");
    if (refs->kind != JsonValue::Kind::array || refs->items.empty())
      fail(refs->line, op.where, "'" + std::string(key) + "' must be a non-empty array of buffer references");
    for (size_t i = 0; i < refs->items.size(); ++i) {
      const JsonValue& r = refs->items[i];
      const std::string rw = op.where + "." + key + "[" + std::to_string(i) + "]";
      if (r.kind != JsonValue::Kind::object) fail(r.line, rw, "a buffer reference is an object");
      if (r.find("switch_channel_id"))
        fail(r.line, rw,
             "a switch-channel (NVLS) buffer: photonsim's fabrics have no in-switch reduction or multicast");
      BufferRef ref;
      const JsonValue* type = r.find("type");
      const JsonValue* id = r.find("buffer_id");
      if ((type != nullptr) == (id != nullptr))
        fail(r.line, rw, "a buffer reference has either 'type' (local: i, o, s) or 'buffer_id' (remote)");
      if (type) {
        ref.rank = gpu.id;
        ref.buffer = buffer_type(*type, rw, "'type'");
      } else {
        if (op.channel == Channel::none)
          fail(id->line, rw, "'buffer_id' names a remote buffer, but the op has no 'channel_type' memory or port");
        const auto& ids = block.remote_ids[static_cast<int>(op.channel)];
        const int64_t max = static_cast<int64_t>(ids.size()) - 1;
        if (max < 0)
          fail(id->line, rw,
               "'buffer_id' names a remote buffer, but the thread block's 'remote_buffer_refs' list none for " +
                   std::string(op.channel == Channel::memory ? "memory" : "port") + " channels");
        const int k = static_cast<int>(integer(*id, rw, "'buffer_id'", 0, max));
        const auto& remote = gpu.remote_buffers[static_cast<size_t>(ids[static_cast<size_t>(k)])];
        ref.remote = true;
        ref.rank = remote.first;
        ref.buffer = remote.second;
      }
      ref.index = integer_member(r, rw, "index", 0, kMaxChunks);
      ref.size = integer_member(r, rw, "size", 1, kMaxChunks);
      const int64_t limit = gpus_[static_cast<size_t>(ref.rank)].chunks[static_cast<int>(ref.buffer)];
      static const char* names[3] = {"input_chunks", "output_chunks", "scratch_chunks"};
      // In place, the output is the input (and an all-gather's input a part of its output).
      const bool aliased = inplace_ && limit == 0 && ref.buffer != ChunkBuffer::scratch;
      if (!aliased && ref.index + ref.size > limit)
        fail(r.line, rw,
             "chunks " + std::to_string(ref.index) + ".." + std::to_string(ref.index + ref.size - 1) +
                 " lie outside GPU " + std::to_string(ref.rank) + "'s buffer (" + names[static_cast<int>(ref.buffer)] +
                 " = " + std::to_string(limit) + ")");
      out.push_back(ref);
    }
  }

  void check_data_op(const JsonValue& e, const PlanOp& op) const {
    const auto size_of = [](const std::vector<BufferRef>& refs) { return refs.front().size; };
    for (const auto* refs : {&op.src, &op.dst}) {
      for (const BufferRef& r : *refs) {
        if (r.size != size_of(op.src))
          fail(e.line, op.where,
               "its buffer references cover " + std::to_string(r.size) + " and " + std::to_string(size_of(op.src)) +
                   " chunks: every one of an op's references has the same 'size'");
      }
    }
    if (op.kind->packet_reads_from >= 0) {
      for (size_t i = static_cast<size_t>(op.kind->packet_reads_from); i < op.src.size(); ++i) {
        if (op.src[i].remote || op.src[i].buffer != ChunkBuffer::scratch)
          fail(e.line, op.where,
               "src_buff[" + std::to_string(i) + "] must be this GPU's scratch (\"type\": \"s\"): a '" + op.kind->name +
                   "' reads LL packets there");
      }
    }
    if (!op.kind->reduces && op.src.size() > 1 && op.src.size() != op.dst.size())
      fail(e.line, op.where,
           "it copies " + std::to_string(op.src.size()) + " sources to " + std::to_string(op.dst.size()) +
               " destinations: give one source, or one per destination");
  }

  // --- running the plan -------------------------------------------------------

  uint64_t location(const BufferRef& r, int64_t c) const { return layout_.key(r.rank, r.buffer, r.index + c); }

  PlanContent content(const BufferRef& r, int64_t c) const {
    const auto it = contents_.find(location(r, c));
    if (it != contents_.end()) return it->second;
    return PlanContent{layout_.initial_block(r.rank, r.buffer, r.index + c), -1, 0, false};
  }

  static int64_t signal_level(const PlanThreadBlock& tb) { return std::max(tb.level, tb.landed); }

  using SignalKey = std::tuple<int, int, int>;  // receiver, sender, tag

  // Whether the op can run now; when it cannot, why (for a plan that hangs).
  bool ready(const PlanOp& op, const PlanThreadBlock& tb, std::string* why) const {
    switch (op.kind->role) {
      case Role::wait:
        for (const ChannelEnd& c : op.channels) {
          const auto it = signals_.find({op.gpu, c.peer, c.tag});
          if (it == signals_.end() || it->second.empty()) {
            if (why)
              *why = "waits for a signal from GPU " + std::to_string(c.peer) + " on their connection " +
                     std::to_string(c.tag) + " that never comes";
            return false;
          }
        }
        return true;
      case Role::sem_acquire:
        for (int s : op.semaphores) {
          const auto it = semaphores_.find({op.gpu, s});
          const int64_t released = it == semaphores_.end() ? 0 : static_cast<int64_t>(it->second.size());
          if (released + gpus_[static_cast<size_t>(op.gpu)].semaphore_init[static_cast<size_t>(s)] <=
              acquired(op.gpu, s)) {
            if (why) *why = "acquires semaphore " + std::to_string(s) + ", which is never released for it";
            return false;
          }
        }
        return true;
      case Role::barrier: {
        if (!tb.at_barrier) return true;  // arrives now
        const auto it = barriers_.find({op.gpu, op.barrier});
        if (it->second.generation > tb.barrier_generation) return true;
        if (why)
          *why = "waits at barrier " + std::to_string(op.barrier) + " for " + std::to_string(op.barrier_blocks) +
                 " thread blocks; " + std::to_string(it->second.arrived) + " arrive";
        return false;
      }
      case Role::data:
        for (size_t i = op.kind->packet_reads_from < 0 ? op.src.size()
                                                       : static_cast<size_t>(op.kind->packet_reads_from);
             i < op.src.size(); ++i) {
          for (int64_t c = 0; c < op.src[i].size; ++c) {
            if (!content(op.src[i], c).packet) {
              if (why)
                *why =
                    "reads LL packets in scratch chunk " + std::to_string(op.src[i].index + c) + " that no op writes";
              return false;
            }
          }
        }
        return true;
      default:
        return true;
    }
  }

  int64_t acquired(int gpu, int s) const {
    const auto it = acquired_.find({gpu, s});
    return it == acquired_.end() ? 0 : it->second;
  }

  void run() {
    bool progress = true;
    while (progress) {
      progress = false;
      for (PlanGpu& gpu : gpus_) {
        for (PlanThreadBlock& tb : gpu.tbs) {
          while (tb.next < tb.ops.size()) {
            const PlanOp& op = tb.ops[tb.next];
            if (!ready(op, tb, nullptr)) break;
            progress = true;
            if (execute(op, tb)) ++tb.next;  // else arrived at a barrier: stays until it opens
          }
        }
      }
    }
    for (const PlanGpu& gpu : gpus_) {
      for (const PlanThreadBlock& tb : gpu.tbs) {
        if (tb.next >= tb.ops.size()) continue;
        const PlanOp& op = tb.ops[tb.next];
        std::string why;
        ready(op, tb, &why);
        fail(op.line, op.where,
             "never runs: it " + (why.empty() ? std::string("waits forever") : why) + " (the plan would hang)");
      }
    }
  }

  // Runs the op; false when the thread block must stay on it (a barrier).
  bool execute(const PlanOp& op, PlanThreadBlock& tb) {
    switch (op.kind->role) {
      case Role::signal:
        for (const ChannelEnd& c : op.channels) signals_[{c.peer, op.gpu, c.tag}].push_back(signal_level(tb));
        return true;
      case Role::wait:
        for (const ChannelEnd& c : op.channels) {
          auto& queue = signals_[{op.gpu, c.peer, c.tag}];
          tb.level = std::max(tb.level, queue.front());
          queue.pop_front();
        }
        return true;
      case Role::sem_release:
        for (int s : op.semaphores) semaphores_[{op.gpu, s}].push_back(signal_level(tb));
        return true;
      case Role::sem_acquire:
        for (int s : op.semaphores) {
          const int64_t k = acquired_[{op.gpu, s}]++;
          const int64_t init = gpus_[static_cast<size_t>(op.gpu)].semaphore_init[static_cast<size_t>(s)];
          if (k >= init) tb.level = std::max(tb.level, semaphores_[{op.gpu, s}][static_cast<size_t>(k - init)]);
        }
        return true;
      case Role::barrier:
        return barrier(op, tb);
      case Role::data:
        run_data(op, tb);
        return true;
      default:
        return true;
    }
  }

  bool barrier(const PlanOp& op, PlanThreadBlock& tb) {
    Barrier& b = barriers_[{op.gpu, op.barrier}];
    if (!tb.at_barrier) {
      if (b.arrived == 0) b.blocks = op.barrier_blocks;
      if (b.blocks != op.barrier_blocks)
        fail(op.line, op.where,
             "'num_threadblocks' is " + std::to_string(op.barrier_blocks) + ", but barrier " +
                 std::to_string(op.barrier) + " was entered for " + std::to_string(b.blocks));
      if (op.barrier_blocks > static_cast<int>(gpus_[static_cast<size_t>(op.gpu)].tbs.size()))
        fail(op.line, op.where,
             "'num_threadblocks' is " + std::to_string(op.barrier_blocks) + ", but GPU " + std::to_string(op.gpu) +
                 " has " + std::to_string(gpus_[static_cast<size_t>(op.gpu)].tbs.size()) + " thread blocks");
      tb.at_barrier = true;
      tb.barrier_generation = b.generation;
      b.level = std::max(b.level, signal_level(tb));
      if (++b.arrived == b.blocks) {  // the last one opens it
        b.released.push_back(b.level);
        ++b.generation;
        b.arrived = 0;
        b.level = 0;
      }
      return false;
    }
    tb.at_barrier = false;
    tb.level = std::max(tb.level, b.released[static_cast<size_t>(tb.barrier_generation)]);
    return true;
  }

  std::vector<uint32_t> read_blocks(const PlanOp& op, const BufferRef& r, size_t i) const {
    std::vector<uint32_t> out;
    for (int64_t c = 0; c < r.size; ++c) {
      const uint32_t block = content(r, c).block;
      if (block == kNoBlock)
        fail(op.line, op.where,
             "src_buff[" + std::to_string(i) + "] reads chunk " + std::to_string(r.index + c) + " of GPU " +
                 std::to_string(r.rank) + "'s " + buffer_name(r.buffer) + ", which holds no data of the " +
                 collective_name() + " when the op runs");
      out.push_back(block);
    }
    return out;
  }

  static const char* buffer_name(ChunkBuffer b) {
    return b == ChunkBuffer::input ? "input" : b == ChunkBuffer::output ? "output" : "scratch";
  }

  int64_t add_transfer(int64_t level, int from, int to, int connection, std::vector<uint32_t> blocks, TransferOp op) {
    LevelledTransfer t;
    t.level = level;
    t.connection = connection;
    t.transfer.src = static_cast<Node>(from);
    t.transfer.dst = static_cast<Node>(to);
    t.transfer.blocks = std::move(blocks);
    t.transfer.op = op;
    transfers_.push_back(std::move(t));
    return static_cast<int64_t>(transfers_.size()) - 1;
  }

  void run_data(const PlanOp& op, PlanThreadBlock& tb) {
    int64_t start = tb.level;
    for (const BufferRef& r : op.src) {
      for (int64_t c = 0; c < r.size; ++c) start = std::max(start, content(r, c).ready);
    }
    // A thread-block group moves its chunk once, with its first slice.
    if (op.group_size > 1) {
      auto& [count, level] = groups_[{op.gpu, op.group_key}];
      if (count++ > 0) {
        tb.level = std::max(start, level);
        if (count == op.group_size) count = 0;
        return;
      }
      level = start;
      if (count == op.group_size) count = 0;
    }
    // A thread block's writes are one stream, its reads another (by_level
    // keys them with the two GPUs).
    const int connection = op.tb;
    // Reads: a remote source is a transfer from its owner.
    std::vector<std::vector<uint32_t>> values;
    std::vector<int64_t> copied_by;
    bool remote_read = false;
    for (size_t i = 0; i < op.src.size(); ++i) {
      const BufferRef& r = op.src[i];
      values.push_back(read_blocks(op, r, i));
      copied_by.push_back(-1);
      if (r.remote) {
        remote_read = true;
        copied_by.back() = add_transfer(start, r.rank, op.gpu, -1 - connection, values.back(),
                                        op.kind->reduces ? TransferOp::reduce : TransferOp::copy);
      }
    }
    const int64_t value_level = start + (remote_read ? 1 : 0);
    std::vector<uint32_t> reduced;
    if (op.kind->reduces) {
      reduced = values.front();
      for (size_t i = 0; i < op.src.size(); ++i) {
        if (!program_.custom && values[i] != reduced) {
          for (size_t c = 0; c < reduced.size(); ++c) {
            if (values[i][c] != reduced[c])
              fail(op.line, op.where,
                   "reduces block " + std::to_string(values[i][c]) + " (src_buff[" + std::to_string(i) +
                       "]) with block " + std::to_string(reduced[c]) + " (src_buff[0])");
          }
        }
        // A chunk received as a copy and then added here was, in
        // photonsim's terms, a reduction all along.
        if (!op.src[i].remote) {
          for (int64_t c = 0; c < op.src[i].size; ++c) {
            const int64_t t = content(op.src[i], c).copied_by;
            if (t >= 0) transfers_[static_cast<size_t>(t)].transfer.op = TransferOp::reduce;
          }
        }
      }
    }
    bool remote_write = false;
    for (size_t i = 0; i < op.dst.size(); ++i) {
      const BufferRef& d = op.dst[i];
      const size_t from = std::min(i, op.src.size() - 1);
      const std::vector<uint32_t>& blocks = op.kind->reduces ? reduced : values[from];
      const bool packet = op.kind->packet_writes_from >= 0 && static_cast<int>(i) >= op.kind->packet_writes_from;
      if (d.remote) {
        remote_write = true;
        const int64_t t = add_transfer(value_level, op.gpu, d.rank, connection, blocks, TransferOp::copy);
        tb.landed = std::max(tb.landed, value_level + 1);
        for (int64_t c = 0; c < d.size; ++c)
          contents_[location(d, c)] = PlanContent{blocks[static_cast<size_t>(c)], t, value_level + 1, packet};
      } else {
        for (int64_t c = 0; c < d.size; ++c) {
          int64_t by = -1;
          if (!op.kind->reduces) {
            by = op.src[from].remote ? copied_by[from] : content(op.src[from], c).copied_by;
          }
          contents_[location(d, c)] = PlanContent{blocks[static_cast<size_t>(c)], by, value_level, packet};
        }
      }
    }
    if (remote_read) tb.landed = std::max(tb.landed, value_level);
    tb.level = remote_write ? value_level : start;
    if (op.kind->signals) {
      for (const ChannelEnd& c : op.channels) signals_[{c.peer, op.gpu, c.tag}].push_back(signal_level(tb));
    }
  }

  const std::string& source_;
  JsonValue root_;
  MscclProgram program_;
  int n_ = 0;
  int64_t chunks_ = 0;
  bool inplace_ = false;
  ChunkLayout layout_;
  std::vector<PlanGpu> gpus_;
  std::unordered_map<uint64_t, PlanContent> contents_;
  std::map<SignalKey, std::deque<int64_t>> signals_;
  std::map<std::pair<int, int>, std::vector<int64_t>> semaphores_;
  std::map<std::pair<int, int>, int64_t> acquired_;
  std::map<std::pair<int, int>, Barrier> barriers_;
  std::map<std::pair<int, std::string>, std::pair<int, int64_t>> groups_;
  std::vector<LevelledTransfer> transfers_;
};

}  // namespace

MscclProgram read_mscclpp_plan(std::string_view text, const std::string& source) {
  return PlanReader(text, source).read();
}

}  // namespace photonsim
