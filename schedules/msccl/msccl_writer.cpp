#include "schedules/msccl/msccl_writer.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "core/error.h"

namespace photonsim {
namespace {

struct Location {
  char buffer = 'i';
  int64_t offset = 0;
  bool operator<(const Location& o) const { return std::tie(buffer, offset) < std::tie(o.buffer, o.offset); }
};

struct LogicalOp {
  std::string type;  // s, r, rrc, cpy
  Location src{'i', -1};
  Location dst{'o', -1};
  int64_t count = 0;
  int gpu = 0;
  int tb = 0;
  bool sends = false;
  std::vector<int64_t> deps;
};

struct ThreadBlockPlan {
  int send = -1;
  int recv = -1;
  std::vector<int64_t> ops;
};

const char* coll_name(Collective c) {
  switch (c) {
    case Collective::allreduce:
      return "allreduce";
    case Collective::allgather:
      return "allgather";
    case Collective::reducescatter:
      return "reduce_scatter";
    case Collective::alltoall:
      return "alltoall";
    case Collective::broadcast:
      return "broadcast";
  }
  return "";
}

class Writer {
 public:
  explicit Writer(const Schedule& s)
      : s_(s), n_(s.gpus()), parts_(static_cast<int64_t>(s.block_parts())), gpus_(static_cast<size_t>(s.gpus())) {}

  std::string write() {
    if (s_.custom())
      throw Error(
          "MSCCL export: a custom collective (read from coll=\"custom\") is not written back: its chunks "
          "are the file's own, not a collective's numbering");
    if (!s_.block_sizes().empty())
      throw Error(std::string("MSCCL export: this ") + to_string(s_.collective()) +
                  " has blocks of their own sizes (workload.distribution), but MSCCL chunks are all one size");
    plan_thread_blocks();
    if (s_.collective() == Collective::alltoall) copy_own_blocks();
    for (size_t step = 0; step < s_.steps().size(); ++step) plan_step(step);
    return emit();
  }

 private:
  int64_t chunks_per_loop() const {
    switch (s_.collective()) {
      case Collective::allgather:
      case Collective::reducescatter:
      case Collective::alltoall:
        return n_ * parts_;
      default:
        return static_cast<int64_t>(s_.blocks());
    }
  }

  // One thread block per peer, in peer order; a GPU with no peer gets one
  // local block so that it still appears.
  void plan_thread_blocks() {
    std::vector<std::set<int>> peers(static_cast<size_t>(n_));
    for (const Step& step : s_.steps()) {
      for (const Transfer& t : step.transfers) {
        if (t.blocks.empty())
          throw Error("MSCCL export: a transfer " + std::to_string(t.src) + " -> " + std::to_string(t.dst) +
                      " carries no blocks, so no chunk can say what it sends");
        if (t.src == t.dst) continue;
        peers[t.src].insert(static_cast<int>(t.dst));
        peers[t.dst].insert(static_cast<int>(t.src));
      }
    }
    for (int g = 0; g < n_; ++g) {
      for (int peer : peers[static_cast<size_t>(g)]) {
        tb_of_[{g, peer}] = static_cast<int>(gpus_[static_cast<size_t>(g)].size());
        gpus_[static_cast<size_t>(g)].push_back(ThreadBlockPlan{});
      }
      if (gpus_[static_cast<size_t>(g)].empty()) gpus_[static_cast<size_t>(g)].push_back(ThreadBlockPlan{});
    }
  }

  // All-to-all: each GPU's block to itself goes from input to output locally.
  void copy_own_blocks() {
    for (int g = 0; g < n_; ++g) {
      LogicalOp op;
      op.type = "cpy";
      op.src = {'i', g * parts_};
      op.dst = {'o', g * parts_};
      op.count = parts_;
      add(g, 0, std::move(op));
    }
  }

  // Where block b lives on `gpu` (all-to-all relays get scratch chunks as blocks arrive).
  Location location(int gpu, uint32_t block, bool arriving) {
    switch (s_.collective()) {
      case Collective::allgather:
        return {'o', block};
      case Collective::alltoall: {
        const int64_t flow = block / parts_;
        const int64_t part = block % parts_;
        const int64_t src = flow / n_;
        const int64_t dst = flow % n_;
        if (gpu == src) return {'i', dst * parts_ + part};
        if (gpu == dst) return {'o', src * parts_ + part};
        auto& slots = scratch_[static_cast<size_t>(gpu)];
        const auto it = slots.find(block);
        if (it != slots.end()) return {'s', it->second};
        if (!arriving)
          throw Error("MSCCL export: GPU " + std::to_string(gpu) + " sends block " + std::to_string(block) +
                      " it never received");
        const int64_t slot = static_cast<int64_t>(slots.size());
        slots.emplace(block, slot);
        return {'s', slot};
      }
      default:
        return {'i', block};
    }
  }

  int64_t add(int gpu, int tb, LogicalOp op) {
    op.gpu = gpu;
    op.tb = tb;
    const int64_t id = static_cast<int64_t>(ops_.size());
    gpus_[static_cast<size_t>(gpu)][static_cast<size_t>(tb)].ops.push_back(id);
    ops_.push_back(std::move(op));
    return id;
  }

  struct Run {
    Location src, dst;
    int64_t count = 0;
  };

  // Blocks whose chunks follow each other on both sides travel as one step.
  std::vector<Run> runs(const Transfer& t) {
    std::vector<Run> out;
    for (uint32_t b : t.blocks) {
      const Location from = location(static_cast<int>(t.src), b, false);
      const Location to = location(static_cast<int>(t.dst), b, true);
      if (!out.empty()) {
        Run& last = out.back();
        if (last.src.buffer == from.buffer && last.dst.buffer == to.buffer &&
            last.src.offset + last.count == from.offset && last.dst.offset + last.count == to.offset) {
          ++last.count;
          continue;
        }
      }
      out.push_back(Run{from, to, 1});
    }
    return out;
  }

  void plan_step(size_t step) {
    // Sends first (they read what the GPU held at the start of the step), then receives.
    std::vector<std::vector<Run>> planned;
    for (const Transfer& t : s_.steps()[step].transfers) planned.push_back(runs(t));
    std::vector<int64_t> anchor_now(static_cast<size_t>(n_), -1);
    const auto& transfers = s_.steps()[step].transfers;
    for (size_t i = 0; i < transfers.size(); ++i) {
      const Transfer& t = transfers[i];
      const int u = static_cast<int>(t.src);
      for (const Run& run : planned[i]) {
        LogicalOp op;
        op.type = "s";
        op.src = run.src;
        op.count = run.count;
        op.sends = true;
        std::set<int64_t> deps;
        if (anchor_[static_cast<size_t>(u)] >= 0) deps.insert(anchor_[static_cast<size_t>(u)]);
        for (int64_t c = 0; c < run.count; ++c) {
          const auto w = last_writer_.find({u, {run.src.buffer, run.src.offset + c}});
          if (w != last_writer_.end()) deps.insert(w->second);
        }
        op.deps.assign(deps.begin(), deps.end());
        const int64_t id = add(u, tb_of_.at({u, static_cast<int>(t.dst)}), std::move(op));
        gpus_[static_cast<size_t>(u)][static_cast<size_t>(ops_[static_cast<size_t>(id)].tb)].send =
            static_cast<int>(t.dst);
        for (int64_t c = 0; c < run.count; ++c) readers_[{u, {run.src.buffer, run.src.offset + c}}].push_back(id);
        if (anchor_now[static_cast<size_t>(u)] < 0) anchor_now[static_cast<size_t>(u)] = id;
      }
    }
    for (size_t i = 0; i < transfers.size(); ++i) {
      const Transfer& t = transfers[i];
      const int v = static_cast<int>(t.dst);
      for (const Run& run : planned[i]) {
        LogicalOp op;
        op.type = t.op == TransferOp::reduce ? "rrc" : "r";
        op.dst = run.dst;
        if (t.op == TransferOp::reduce) op.src = run.dst;
        op.count = run.count;
        std::set<int64_t> deps;
        for (int64_t c = 0; c < run.count; ++c) {
          const std::pair<int, Location> where{v, {run.dst.buffer, run.dst.offset + c}};
          const auto w = last_writer_.find(where);
          if (w != last_writer_.end()) deps.insert(w->second);
          const auto r = readers_.find(where);
          if (r != readers_.end()) deps.insert(r->second.begin(), r->second.end());
        }
        op.deps.assign(deps.begin(), deps.end());
        const int64_t id = add(v, tb_of_.at({v, static_cast<int>(t.src)}), std::move(op));
        gpus_[static_cast<size_t>(v)][static_cast<size_t>(ops_[static_cast<size_t>(id)].tb)].recv =
            static_cast<int>(t.src);
        for (int64_t c = 0; c < run.count; ++c) {
          const std::pair<int, Location> where{v, {run.dst.buffer, run.dst.offset + c}};
          last_writer_[where] = id;
          readers_.erase(where);
        }
        if (anchor_now[static_cast<size_t>(v)] < 0) anchor_now[static_cast<size_t>(v)] = id;
      }
    }
    anchor_ = std::move(anchor_now);
  }

  std::string emit() {
    // Thread-block order already orders a block's own steps, except that a
    // send hands its data over without waiting for delivery: a dependency on
    // an earlier send of the same block is kept, any other on the same block dropped.
    // A thread block finishes its steps in order, so of the steps it
    // depends on in one other block only the last counts, and one an
    // earlier step of the same block already waited for need not be waited
    // for again (msccl-tools drops the same redundant dependencies).
    std::vector<int64_t> position(ops_.size(), 0);
    std::vector<bool> depended(ops_.size(), false);
    for (const auto& tbs : gpus_) {
      for (const ThreadBlockPlan& tb : tbs) {
        std::map<int, int64_t> waited;  // other thread block -> latest op waited for
        for (int64_t id : tb.ops) {
          LogicalOp& op = ops_[static_cast<size_t>(id)];
          std::map<int, int64_t> latest;
          for (int64_t d : op.deps) {
            const LogicalOp& target = ops_[static_cast<size_t>(d)];
            if (target.tb == op.tb && !(target.sends && op.sends)) continue;
            int64_t& slot = latest.try_emplace(target.tb, d).first->second;
            slot = std::max(slot, d);
          }
          op.deps.clear();
          for (const auto& [target_tb, d] : latest) {
            const auto seen = waited.find(target_tb);
            if (target_tb != op.tb && seen != waited.end() && seen->second >= d) continue;
            op.deps.push_back(d);
            depended[static_cast<size_t>(d)] = true;
            if (target_tb != op.tb) waited[target_tb] = d;
          }
        }
      }
    }
    for (const auto& tbs : gpus_) {
      for (const ThreadBlockPlan& tb : tbs) {
        int64_t next = 0;
        for (int64_t id : tb.ops) {
          const size_t extra = ops_[static_cast<size_t>(id)].deps.size();
          next += extra > 1 ? static_cast<int64_t>(extra) - 1 : 0;
          position[static_cast<size_t>(id)] = next++;
        }
      }
    }
    std::ostringstream out;
    int64_t max_scratch = 0;
    for (const auto& slots : scratch_) max_scratch = std::max(max_scratch, static_cast<int64_t>(slots.size()));
    const Collective c = s_.collective();
    const bool alltoall = c == Collective::alltoall;
    out << "<algo name=\"photonsim " << escape(s_.algorithm()) << " / " << escape(s_.planner())
        << "\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"" << chunks_per_loop() << "\" ngpus=\"" << n_
        << "\" coll=\"" << coll_name(c) << "\" inplace=\"" << (alltoall ? 0 : 1) << "\" outofplace=\""
        << (alltoall ? 1 : 0) << "\"";
    if (c == Collective::broadcast) out << " root=\"" << s_.root() << "\"";
    out << ">\n";
    for (int g = 0; g < n_; ++g) {
      int64_t input = chunks_per_loop(), output = 0, scratch = 0;
      if (c == Collective::allgather) {
        input = parts_;
        output = n_ * parts_;
      } else if (c == Collective::reducescatter) {
        output = parts_;
      } else if (alltoall) {
        output = input;
        scratch = static_cast<int64_t>(scratch_[static_cast<size_t>(g)].size());
      }
      out << "  <gpu id=\"" << g << "\" i_chunks=\"" << input << "\" o_chunks=\"" << output << "\" s_chunks=\""
          << scratch << "\">\n";
      const auto& tbs = gpus_[static_cast<size_t>(g)];
      for (size_t t = 0; t < tbs.size(); ++t) {
        const ThreadBlockPlan& tb = tbs[t];
        const bool talks = tb.send >= 0 || tb.recv >= 0;
        out << "    <tb id=\"" << t << "\" send=\"" << tb.send << "\" recv=\"" << tb.recv << "\" chan=\""
            << (talks ? 0 : -1) << "\">\n";
        for (int64_t id : tb.ops) {
          const LogicalOp& op = ops_[static_cast<size_t>(id)];
          const int64_t at = position[static_cast<size_t>(id)];
          const size_t nops = op.deps.size() > 1 ? op.deps.size() - 1 : 0;
          for (size_t k = 0; k < nops; ++k) {
            LogicalOp nop;
            nop.type = "nop";
            write_step(out, nop, at - static_cast<int64_t>(nops) + static_cast<int64_t>(k), op.deps[k + 1], position,
                       false);
          }
          write_step(out, op, at, op.deps.empty() ? -1 : op.deps.front(), position, depended[static_cast<size_t>(id)]);
        }
        out << "    </tb>\n";
      }
      out << "  </gpu>\n";
    }
    out << "</algo>\n";
    return out.str();
  }

  void write_step(std::ostream& out, const LogicalOp& op, int64_t at, int64_t dep, const std::vector<int64_t>& position,
                  bool has_dependent) const {
    out << "      <step s=\"" << at << "\" type=\"" << op.type << "\" srcbuf=\"" << op.src.buffer << "\" srcoff=\""
        << op.src.offset << "\" dstbuf=\"" << op.dst.buffer << "\" dstoff=\"" << op.dst.offset << "\" cnt=\""
        << op.count << "\" depid=\"" << (dep < 0 ? -1 : ops_[static_cast<size_t>(dep)].tb) << "\" deps=\""
        << (dep < 0 ? -1 : position[static_cast<size_t>(dep)]) << "\" hasdep=\"" << (has_dependent ? 1 : 0) << "\"/>\n";
  }

  static std::string escape(const std::string& text) {
    std::string out;
    for (char ch : text) {
      switch (ch) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        default:
          out.push_back(ch);
      }
    }
    return out;
  }

  const Schedule& s_;
  const int n_;
  const int64_t parts_;
  std::vector<std::vector<ThreadBlockPlan>> gpus_;
  std::map<std::pair<int, int>, int> tb_of_;
  std::vector<std::map<uint32_t, int64_t>> scratch_ = std::vector<std::map<uint32_t, int64_t>>(gpus_.size());
  std::vector<LogicalOp> ops_;
  std::map<std::pair<int, Location>, int64_t> last_writer_;
  std::map<std::pair<int, Location>, std::vector<int64_t>> readers_;
  std::vector<int64_t> anchor_ = std::vector<int64_t>(gpus_.size(), -1);
};

}  // namespace

std::string write_msccl_xml(const Schedule& schedule) { return Writer(schedule).write(); }

}  // namespace photonsim
