#include "schedules/msccl/msccl_reader.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/error.h"
#include "schedules/msccl/chunk_layout.h"
#include "schedules/msccl/levelled_transfer.h"
#include "schedules/msccl/xml_element.h"

namespace photonsim {
namespace {

constexpr int kMaxGpus = 1 << 16;
constexpr uint64_t kMaxBlocks = uint64_t{1} << 28;
using Buffer = ChunkBuffer;

// What a step does: its receive, reduction, store and send parts.
struct StepKind {
  const char* name;
  bool receives;
  bool sends;
  bool reduces;    // the received data is added to a local chunk
  bool stores;     // writes dstbuf/dstoff
  bool reads_src;  // reads srcbuf/srcoff
};

constexpr StepKind kKinds[] = {
    {"s", false, true, false, false, true},     {"r", true, false, false, true, false},
    {"rcs", true, true, false, true, false},    {"rrs", true, true, true, false, true},
    {"rrc", true, false, true, true, true},     {"rrcs", true, true, true, true, true},
    {"cpy", false, false, false, true, true},   {"re", false, false, true, true, true},
    {"nop", false, false, false, false, false},
};

std::string kind_names() {
  std::string out;
  for (const StepKind& k : kKinds) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

struct Op {
  const StepKind* kind = nullptr;
  int gpu = 0;
  int tb = 0;  // index into the GPU's thread blocks
  int index = 0;
  int line = 0;
  Buffer src_buffer = Buffer::input;
  Buffer dst_buffer = Buffer::input;
  int64_t src_offset = 0;
  int64_t dst_offset = 0;
  int64_t count = 0;
  int dep_tb_id = -1;  // the thread block id as written, resolved later
  int dep_step = -1;
  int64_t dep = -1;      // op index
  int64_t sent_by = -1;  // the receive part's matching send
  std::string where;
};

struct ThreadBlock {
  int id = 0;
  int send = -1;
  int recv = -1;
  int channel = -1;
  std::vector<int64_t> ops;
};

struct Gpu {
  int id = 0;
  int64_t chunks[3] = {0, 0, 0};
  std::vector<ThreadBlock> tbs;
  std::map<int, int> tb_by_id;
};

struct Content {
  uint32_t block = kNoBlock;
  int64_t copied_by = -1;  // the transfer whose copy put it here, if any
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& source) : source_(source), root_(parse_xml(text, source)) {}

  MscclProgram read() {
    read_algo();
    layout_ = ChunkLayout(program_.collective, program_.custom, n_, chunks_, inplace_, program_.root);
    read_gpus();
    resolve_dependencies();
    match_sends();
    run();
    return finish();
  }

 private:
  [[noreturn]] void fail(int line, const std::string& where, const std::string& what) const {
    throw Error(source_ + ":" + std::to_string(line) + ": " + where + ": " + what);
  }

  std::optional<int64_t> number(const XmlElement& e, const std::string& where, const char* key, int64_t min,
                                int64_t max, bool required = true) const {
    const std::string* value = e.attribute(key);
    if (!value) {
      if (!required) return std::nullopt;
      fail(e.line, where, "attribute '" + std::string(key) + "' is missing");
    }
    int64_t out = 0;
    const char* begin = value->data();
    const char* end = begin + value->size();
    const auto [stop, error] = std::from_chars(begin, end, out);
    if (value->empty() || error != std::errc() || stop != end)
      fail(e.line, where, "attribute '" + std::string(key) + "' must be an integer (got " + quoted(*value) + ")");
    if (out < min || out > max)
      fail(e.line, where,
           "attribute '" + std::string(key) + "' must be in " + std::to_string(min) + ".." + std::to_string(max) +
               " (got " + *value + ")");
    return out;
  }

  const std::string& text(const XmlElement& e, const std::string& where, const char* key) const {
    const std::string* value = e.attribute(key);
    if (!value) fail(e.line, where, "attribute '" + std::string(key) + "' is missing");
    return *value;
  }

  void read_algo() {
    if (root_.name != "algo") fail(root_.line, "<" + root_.name + ">", "the root element must be <algo>");
    const std::string where = "<algo>";
    if (const std::string* name = root_.attribute("name")) program_.name = *name;
    const std::string& coll = text(root_, where, "coll");
    if (coll == "allreduce") {
      program_.collective = Collective::allreduce;
    } else if (coll == "allgather") {
      program_.collective = Collective::allgather;
    } else if (coll == "reduce_scatter" || coll == "reducescatter") {
      program_.collective = Collective::reducescatter;
    } else if (coll == "alltoall") {
      program_.collective = Collective::alltoall;
    } else if (coll == "broadcast") {
      program_.collective = Collective::broadcast;
    } else if (coll == "custom") {
      program_.custom = true;  // the collective is the workload's (msccl_algorithm.h)
    } else {
      fail(root_.line, where,
           "attribute 'coll' is " + quoted(coll) +
               "; photonsim reads allreduce, allgather, reduce_scatter, alltoall, broadcast and custom");
    }
    n_ = static_cast<int>(*number(root_, where, "ngpus", 2, kMaxGpus));
    program_.gpus = n_;
    chunks_ = *number(root_, where, "nchunksperloop", 1, static_cast<int64_t>(kMaxBlocks));
    channels_ = static_cast<int>(*number(root_, where, "nchannels", 1, 1 << 16));
    inplace_ = *number(root_, where, "inplace", 0, 1) == 1;
    program_.min_bytes = number(root_, where, "minBytes", 0, INT64_MAX, false).value_or(0);
    program_.max_bytes = number(root_, where, "maxBytes", 0, INT64_MAX, false).value_or(0);
    // All-gather and reduce-scatter: each GPU owns nchunksperloop / ngpus
    // chunks (production NDv4/NCv4 all-gathers use 2-4), photonsim's
    // block_parts.
    const auto per_gpu = [&]() {
      if (chunks_ % n_ != 0)
        fail(root_.line, where,
             "attribute 'nchunksperloop' must be a multiple of ngpus = " + std::to_string(n_) + " for " + coll +
                 " (got " + std::to_string(chunks_) + "): each GPU owns as many chunks");
      factor_ = chunks_ / n_;
      program_.blocks = static_cast<uint32_t>(chunks_);
      program_.block_parts = static_cast<uint32_t>(factor_);
    };
    if (program_.custom) {
      // Block g*C + c starts in GPU g's input chunk c (C = nchunksperloop).
      const uint64_t blocks = static_cast<uint64_t>(n_) * static_cast<uint64_t>(chunks_);
      if (blocks > kMaxBlocks)
        fail(root_.line, where, "ngpus x nchunksperloop = " + std::to_string(blocks) + " blocks is too many");
      program_.blocks = static_cast<uint32_t>(blocks);
      return;
    }
    switch (program_.collective) {
      case Collective::allgather:
      case Collective::reducescatter:
        per_gpu();
        break;
      case Collective::alltoall: {
        if (chunks_ % n_ != 0)
          fail(root_.line, where,
               "attribute 'nchunksperloop' must be a multiple of ngpus = " + std::to_string(n_) +
                   " for alltoall (got " + std::to_string(chunks_) + ")");
        factor_ = chunks_ / n_;
        const uint64_t blocks = static_cast<uint64_t>(n_) * static_cast<uint64_t>(n_) * static_cast<uint64_t>(factor_);
        if (blocks > kMaxBlocks)
          fail(root_.line, where, "ngpus^2 x nchunksperloop/ngpus = " + std::to_string(blocks) + " blocks is too many");
        program_.blocks = static_cast<uint32_t>(blocks);
        program_.block_parts = static_cast<uint32_t>(factor_);
        break;
      }
      case Collective::broadcast:
        program_.root = static_cast<int>(*number(root_, where, "root", 0, n_ - 1));
        program_.blocks = static_cast<uint32_t>(chunks_);
        break;
      default:
        program_.blocks = static_cast<uint32_t>(chunks_);
        break;
    }
  }

  void read_gpus() {
    gpus_.resize(static_cast<size_t>(n_));
    std::vector<bool> seen(static_cast<size_t>(n_), false);
    for (int g = 0; g < n_; ++g) gpus_[static_cast<size_t>(g)].id = g;
    for (const XmlElement& e : root_.children) {
      if (e.name != "gpu") fail(e.line, "<algo>", "unexpected element <" + e.name + "> (only <gpu> belongs here)");
      const int id = static_cast<int>(*number(e, "<gpu>", "id", 0, n_ - 1));
      const std::string where = "<gpu id=" + std::to_string(id) + ">";
      if (seen[static_cast<size_t>(id)]) fail(e.line, where, "a second <gpu> with this id");
      seen[static_cast<size_t>(id)] = true;
      Gpu& gpu = gpus_[static_cast<size_t>(id)];
      const char* keys[3] = {"i_chunks", "o_chunks", "s_chunks"};
      for (int b = 0; b < 3; ++b) gpu.chunks[b] = *number(e, where, keys[b], 0, static_cast<int64_t>(kMaxBlocks));
      for (const XmlElement& t : e.children) read_tb(gpu, t, where);
    }
  }

  void read_tb(Gpu& gpu, const XmlElement& e, const std::string& gpu_where) {
    if (e.name != "tb") fail(e.line, gpu_where, "unexpected element <" + e.name + "> (only <tb> belongs here)");
    ThreadBlock tb;
    tb.id = static_cast<int>(*number(e, gpu_where + " <tb>", "id", 0, 1 << 20));
    const std::string where = gpu_where + " <tb id=" + std::to_string(tb.id) + ">";
    if (gpu.tb_by_id.count(tb.id)) fail(e.line, where, "a second <tb> with this id");
    tb.send = static_cast<int>(*number(e, where, "send", -1, n_ - 1));
    tb.recv = static_cast<int>(*number(e, where, "recv", -1, n_ - 1));
    tb.channel = static_cast<int>(*number(e, where, "chan", -1, channels_ - 1));
    if (tb.send == gpu.id || tb.recv == gpu.id)
      fail(e.line, where,
           "attribute '" + std::string(tb.send == gpu.id ? "send" : "recv") + "' names the GPU itself (" +
               std::to_string(gpu.id) + ")");
    if ((tb.send >= 0 || tb.recv >= 0) && tb.channel < 0)
      fail(e.line, where,
           "attribute 'chan' must be 0.." + std::to_string(channels_ - 1) +
               " for a thread block that sends or receives");
    for (const ThreadBlock& other : gpu.tbs) {
      if (tb.send >= 0 && other.send == tb.send && other.channel == tb.channel)
        fail(e.line, where,
             "a second thread block sending to GPU " + std::to_string(tb.send) + " on channel " +
                 std::to_string(tb.channel) + " (the first is <tb id=" + std::to_string(other.id) + ">)");
      if (tb.recv >= 0 && other.recv == tb.recv && other.channel == tb.channel)
        fail(e.line, where,
             "a second thread block receiving from GPU " + std::to_string(tb.recv) + " on channel " +
                 std::to_string(tb.channel) + " (the first is <tb id=" + std::to_string(other.id) + ">)");
    }
    const int tb_index = static_cast<int>(gpu.tbs.size());
    gpu.tb_by_id[tb.id] = tb_index;
    for (const XmlElement& s : e.children) {
      if (s.name != "step") fail(s.line, where, "unexpected element <" + s.name + "> (only <step> belongs here)");
      tb.ops.push_back(read_step(gpu, tb, tb_index, s, where));
    }
    gpu.tbs.push_back(std::move(tb));
  }

  Buffer buffer(const XmlElement& e, const std::string& where, const char* key) const {
    const std::string& value = text(e, where, key);
    if (value == "i") return Buffer::input;
    if (value == "o") return Buffer::output;
    if (value == "s") return Buffer::scratch;
    fail(e.line, where, "attribute '" + std::string(key) + "' must be i, o or s (got " + quoted(value) + ")");
  }

  int64_t read_step(const Gpu& gpu, const ThreadBlock& tb, int tb_index, const XmlElement& e,
                    const std::string& tb_where) {
    const int64_t expected = static_cast<int64_t>(tb.ops.size());
    const int64_t s = *number(e, tb_where + " <step>", "s", 0, std::numeric_limits<int32_t>::max());
    Op op;
    op.where = tb_where + " <step s=" + std::to_string(s) + ">";
    if (s != expected)
      fail(e.line, op.where, "attribute 's' must number the steps in order: expected " + std::to_string(expected));
    op.gpu = gpu.id;
    op.tb = tb_index;
    op.index = static_cast<int>(s);
    op.line = e.line;
    const std::string& type = text(e, op.where, "type");
    for (const StepKind& k : kKinds) {
      if (type == k.name) op.kind = &k;
    }
    if (!op.kind) fail(e.line, op.where, "attribute 'type' is " + quoted(type) + "; photonsim reads " + kind_names());
    op.src_buffer = buffer(e, op.where, "srcbuf");
    op.dst_buffer = buffer(e, op.where, "dstbuf");
    op.src_offset = *number(e, op.where, "srcoff", -1, static_cast<int64_t>(kMaxBlocks));
    op.dst_offset = *number(e, op.where, "dstoff", -1, static_cast<int64_t>(kMaxBlocks));
    const bool nop = op.kind->name == std::string_view("nop");
    op.count = *number(e, op.where, "cnt", nop ? 0 : 1, static_cast<int64_t>(kMaxBlocks));
    op.dep_tb_id = static_cast<int>(*number(e, op.where, "depid", -1, 1 << 20));
    op.dep_step = static_cast<int>(*number(e, op.where, "deps", -1, std::numeric_limits<int32_t>::max()));
    if ((op.dep_tb_id < 0) != (op.dep_step < 0))
      fail(e.line, op.where, "attributes 'depid' and 'deps' must both be -1 or both name a step");
    if (op.dep_tb_id == tb.id && op.dep_step == op.index) fail(e.line, op.where, "the step depends on itself");
    number(e, op.where, "hasdep", 0, 1, false);
    if (op.kind->sends && tb.send < 0)
      fail(e.line, op.where, "a '" + type + "' step sends, but its thread block has send=-1");
    if (op.kind->receives && tb.recv < 0)
      fail(e.line, op.where, "a '" + type + "' step receives, but its thread block has recv=-1");
    if (op.kind->reads_src) check_bounds(gpu, op, e, "srcbuf", "srcoff", op.src_buffer, op.src_offset);
    if (op.kind->stores) check_bounds(gpu, op, e, "dstbuf", "dstoff", op.dst_buffer, op.dst_offset);
    ops_.push_back(std::move(op));
    return static_cast<int64_t>(ops_.size()) - 1;
  }

  void check_bounds(const Gpu& gpu, const Op& op, const XmlElement& e, const char* buf_key, const char* off_key,
                    Buffer buffer, int64_t offset) const {
    static const char* sizes[3] = {"i_chunks", "o_chunks", "s_chunks"};
    const int64_t size = gpu.chunks[static_cast<int>(buffer)];
    if (offset < 0 || offset + op.count > size)
      fail(e.line, op.where,
           std::string("attribute '") + off_key + "' = " + std::to_string(offset) + " with cnt " +
               std::to_string(op.count) + " lies outside " + buf_key + " (" + sizes[static_cast<int>(buffer)] + " = " +
               std::to_string(size) + ")");
  }

  void resolve_dependencies() {
    for (Op& op : ops_) {
      if (op.dep_tb_id < 0) continue;
      const Gpu& gpu = gpus_[static_cast<size_t>(op.gpu)];
      const auto tb = gpu.tb_by_id.find(op.dep_tb_id);
      if (tb == gpu.tb_by_id.end())
        fail(op.line, op.where,
             "attribute 'depid' names thread block " + std::to_string(op.dep_tb_id) + ", which GPU " +
                 std::to_string(op.gpu) + " does not have");
      const ThreadBlock& target = gpu.tbs[static_cast<size_t>(tb->second)];
      if (op.dep_step >= static_cast<int>(target.ops.size()))
        fail(op.line, op.where,
             "attributes 'depid'/'deps' name step " + std::to_string(op.dep_step) + " of thread block " +
                 std::to_string(op.dep_tb_id) + ", which has " + std::to_string(target.ops.size()) + " steps");
      op.dep = target.ops[static_cast<size_t>(op.dep_step)];
    }
  }

  // The k-th send of u's thread block to v on channel c meets the k-th
  // receive of v's thread block from u on channel c.
  void match_sends() {
    for (const Gpu& gpu : gpus_) {
      for (const ThreadBlock& tb : gpu.tbs) {
        if (tb.send < 0) continue;
        std::vector<int64_t> sends;
        for (int64_t o : tb.ops) {
          if (ops_[static_cast<size_t>(o)].kind->sends) sends.push_back(o);
        }
        std::vector<int64_t> receives;
        const Gpu& peer = gpus_[static_cast<size_t>(tb.send)];
        for (const ThreadBlock& other : peer.tbs) {
          if (other.recv != gpu.id || other.channel != tb.channel) continue;
          for (int64_t o : other.ops) {
            if (ops_[static_cast<size_t>(o)].kind->receives) receives.push_back(o);
          }
        }
        const std::string where = "<gpu id=" + std::to_string(gpu.id) + "> <tb id=" + std::to_string(tb.id) + ">";
        if (sends.size() != receives.size())
          fail(line_of(tb), where,
               "sends " + std::to_string(sends.size()) + " time(s) to GPU " + std::to_string(tb.send) + " on channel " +
                   std::to_string(tb.channel) + ", but GPU " + std::to_string(tb.send) + " receives " +
                   std::to_string(receives.size()) + " time(s) from GPU " + std::to_string(gpu.id) + " on it");
        for (size_t k = 0; k < sends.size(); ++k) {
          const Op& send = ops_[static_cast<size_t>(sends[k])];
          Op& recv = ops_[static_cast<size_t>(receives[k])];
          if (send.count != recv.count)
            fail(recv.line, recv.where,
                 "receives cnt " + std::to_string(recv.count) + " but its matching send (" + send.where +
                     ") sends cnt " + std::to_string(send.count));
          recv.sent_by = sends[k];
        }
      }
    }
    for (const Op& op : ops_) {
      if (op.kind->receives && op.sent_by < 0)
        fail(op.line, op.where,
             "receives from GPU " +
                 std::to_string(gpus_[static_cast<size_t>(op.gpu)].tbs[static_cast<size_t>(op.tb)].recv) +
                 ", which sends nothing to this GPU on this channel");
    }
  }

  int line_of(const ThreadBlock& tb) const {
    return tb.ops.empty() ? root_.line : ops_[static_cast<size_t>(tb.ops.front())].line;
  }

  // --- chunk contents -------------------------------------------------------

  Content content(int gpu, Buffer buffer, int64_t offset) const {
    const auto it = contents_.find(layout_.key(gpu, buffer, offset));
    if (it != contents_.end()) return it->second;
    return Content{layout_.initial_block(gpu, buffer, offset), -1};
  }

  std::vector<uint32_t> read_blocks(const Op& op) const {
    std::vector<uint32_t> out;
    for (int64_t c = 0; c < op.count; ++c) {
      const uint32_t block = content(op.gpu, op.src_buffer, op.src_offset + c).block;
      if (block == kNoBlock)
        fail(op.line, op.where,
             "reads chunk " + std::to_string(op.src_offset + c) + " of srcbuf, which holds no data of the " +
                 to_string(program_.collective) + " when the step runs");
      out.push_back(block);
    }
    return out;
  }

  // Received (or reduced) data must be the same block as the local chunk it
  // meets (a custom collective may combine any chunks: its result is its own).
  void check_same_blocks(const Op& op, const std::vector<uint32_t>& incoming, const std::vector<uint32_t>& local) {
    if (program_.custom) return;
    for (size_t c = 0; c < incoming.size(); ++c) {
      if (incoming[c] != local[c])
        fail(
            op.line, op.where,
            "reduces block " + std::to_string(incoming[c]) + " into a chunk holding block " + std::to_string(local[c]));
    }
  }

  void store(const Op& op, const std::vector<uint32_t>& blocks, int64_t copied_by) {
    for (size_t c = 0; c < blocks.size(); ++c)
      contents_[layout_.key(op.gpu, op.dst_buffer, op.dst_offset + static_cast<int64_t>(c))] =
          Content{blocks[c], copied_by};
  }

  // --- execution in dependency order ----------------------------------------

  void run() {
    const size_t total = ops_.size();
    std::vector<std::vector<int64_t>> successors(total);
    std::vector<int> waiting(total, 0);
    for (size_t i = 0; i < total; ++i) {
      const Op& op = ops_[i];
      const auto add = [&](int64_t before) {
        successors[static_cast<size_t>(before)].push_back(static_cast<int64_t>(i));
        ++waiting[i];
      };
      if (op.index > 0)
        add(gpus_[static_cast<size_t>(op.gpu)].tbs[static_cast<size_t>(op.tb)].ops[static_cast<size_t>(op.index - 1)]);
      if (op.dep >= 0) add(op.dep);
      if (op.kind->receives) add(op.sent_by);
    }
    finish_tb_.assign(total, 0);
    finish_dep_.assign(total, 0);
    transfer_of_.assign(total, -1);
    std::deque<int64_t> ready;
    for (size_t i = 0; i < total; ++i) {
      if (waiting[i] == 0) ready.push_back(static_cast<int64_t>(i));
    }
    size_t done = 0;
    while (!ready.empty()) {
      const int64_t i = ready.front();
      ready.pop_front();
      execute(i);
      ++done;
      for (int64_t next : successors[static_cast<size_t>(i)]) {
        if (--waiting[static_cast<size_t>(next)] == 0) ready.push_back(next);
      }
    }
    if (done < total) {
      for (size_t i = 0; i < total; ++i) {
        if (waiting[i] > 0)
          fail(ops_[i].line, ops_[i].where,
               "never runs: its dependencies (thread-block order, depid/deps, matching sends) form a cycle");
      }
    }
  }

  void execute(int64_t i) {
    const Op& op = ops_[static_cast<size_t>(i)];
    const auto& tb = gpus_[static_cast<size_t>(op.gpu)].tbs[static_cast<size_t>(op.tb)];
    // Levels: a send finishes, for its own thread block, once handed over
    // (the next step of the block may send in the same level); whoever
    // depends on it explicitly or receives it waits for the whole transfer.
    int64_t start = 0;
    if (op.index > 0)
      start = std::max(start, finish_tb_[static_cast<size_t>(tb.ops[static_cast<size_t>(op.index - 1)])]);
    if (op.dep >= 0) start = std::max(start, finish_dep_[static_cast<size_t>(op.dep)]);
    std::vector<uint32_t> incoming;
    if (op.kind->receives) {
      const int64_t t = transfer_of_[static_cast<size_t>(op.sent_by)];
      start = std::max(start, transfers_[static_cast<size_t>(t)].level + 1);
      incoming = transfers_[static_cast<size_t>(t)].transfer.blocks;
      transfers_[static_cast<size_t>(t)].transfer.op = op.kind->reduces ? TransferOp::reduce : TransferOp::copy;
      if (op.kind->reduces && op.kind->reads_src) check_same_blocks(op, incoming, read_blocks(op));
      if (op.kind->stores) store(op, incoming, op.kind->reduces ? -1 : t);
    } else if (op.kind->name == std::string_view("cpy")) {
      for (int64_t c = 0; c < op.count; ++c) {
        const Content from = content(op.gpu, op.src_buffer, op.src_offset + c);
        if (from.block == kNoBlock) read_blocks(op);  // fails naming the chunk
        contents_[layout_.key(op.gpu, op.dst_buffer, op.dst_offset + c)] = from;
      }
    } else if (op.kind->name == std::string_view("re")) {
      const std::vector<uint32_t> added = read_blocks(op);
      std::vector<uint32_t> into;
      for (int64_t c = 0; c < op.count; ++c) into.push_back(content(op.gpu, op.dst_buffer, op.dst_offset + c).block);
      check_same_blocks(op, added, into);
      // A chunk received as a copy and then added here was, in photonsim's
      // terms, a reduction all along.
      for (int64_t c = 0; c < op.count; ++c) {
        const Content from = content(op.gpu, op.src_buffer, op.src_offset + c);
        if (from.copied_by >= 0) transfers_[static_cast<size_t>(from.copied_by)].transfer.op = TransferOp::reduce;
      }
      store(op, into, -1);
    }
    finish_tb_[static_cast<size_t>(i)] = start;
    finish_dep_[static_cast<size_t>(i)] = start;
    if (op.kind->sends) {
      LevelledTransfer t;
      t.level = start;
      t.connection = tb.channel;
      t.transfer.src = static_cast<Node>(op.gpu);
      t.transfer.dst = static_cast<Node>(tb.send);
      t.transfer.blocks = op.kind->receives ? incoming : read_blocks(op);
      transfer_of_[static_cast<size_t>(i)] = static_cast<int64_t>(transfers_.size());
      transfers_.push_back(std::move(t));
      finish_dep_[static_cast<size_t>(i)] = start + 1;
    }
  }

  MscclProgram finish() {
    program_.levels = by_level(transfers_);
    return std::move(program_);
  }

  const std::string& source_;
  XmlElement root_;
  MscclProgram program_;
  int n_ = 0;
  int64_t chunks_ = 0;
  int64_t factor_ = 1;
  int channels_ = 1;
  bool inplace_ = false;
  ChunkLayout layout_;
  std::vector<Gpu> gpus_;
  std::vector<Op> ops_;
  std::unordered_map<uint64_t, Content> contents_;
  std::vector<int64_t> finish_tb_;
  std::vector<int64_t> finish_dep_;
  std::vector<int64_t> transfer_of_;
  std::vector<LevelledTransfer> transfers_;
};

}  // namespace

MscclProgram read_msccl_xml(std::string_view text, const std::string& source) { return Reader(text, source).read(); }

}  // namespace photonsim
