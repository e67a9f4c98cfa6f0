#include "schedules/verify/block_verifier.h"

#include <algorithm>
#include <map>
#include <utility>
#include <tuple>
#include <vector>

#include "schedules/model/block_sizes.h"

namespace photonsim {

namespace {

// A fixed-size bitset over [0, bits) stored in 64-bit words.
class Bits {
 public:
  explicit Bits(size_t bits = 0) : words_((bits + 63) / 64, 0) {}
  bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1U; }
  void set(size_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  bool empty() const {
    return std::all_of(words_.begin(), words_.end(), [](uint64_t w) { return w == 0; });
  }
  bool all(size_t bits) const {
    for (size_t i = 0; i < bits; ++i) {
      if (!test(i)) return false;
    }
    return true;
  }
  // First bit set in both, or -1.
  int64_t first_common(const Bits& o) const {
    for (size_t w = 0; w < words_.size(); ++w) {
      const uint64_t both = words_[w] & o.words_[w];
      if (both) return static_cast<int64_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(both)));
    }
    return -1;
  }
  void merge(const Bits& o) {
    for (size_t w = 0; w < words_.size(); ++w) words_[w] |= o.words_[w];
  }
  size_t first_missing(size_t bits) const {
    for (size_t i = 0; i < bits; ++i) {
      if (!test(i)) return i;
    }
    return bits;
  }

 private:
  std::vector<uint64_t> words_;
};

bool reduces(Collective c) { return c == Collective::reducescatter || c == Collective::allreduce; }

class Verifier {
 public:
  explicit Verifier(const Schedule& s)
      : s_(s),
        n_(static_cast<size_t>(s.gpus())),
        parts_(s.block_parts()),
        blocks_(s.blocks()),
        reducing_(reduces(s.collective())) {}

  Verification run() {
    Verification result;
    if (blocks_ == 0) return fail(result, 0, 0, 0, "the schedule declares no blocks, so nothing can be verified");
    if (s_.message().count() <= 0) {
      return fail(result, 0, 0, 0,
                  "the schedule's message is " + std::to_string(s_.message().count()) +
                      " bytes; a collective moves at least one byte (as workload.message)");
    }
    if (!covers_the_buffer(result)) return result;
    if (s_.collective() == Collective::alltoall && blocks_ != n_ * n_ * parts_) {
      return fail(result, 0, 0, 0,
                  "an all-to-all of " + std::to_string(parts_) + " part(s) per flow needs n*n*parts = " +
                      std::to_string(n_ * n_ * parts_) + " blocks, the schedule declares " + std::to_string(blocks_));
    }
    if ((s_.collective() == Collective::allgather || s_.collective() == Collective::reducescatter) &&
        blocks_ != n_ * parts_) {
      return fail(result, 0, 0, 0,
                  std::string("a ") + to_string(s_.collective()) + " of " + std::to_string(parts_) +
                      " block(s) per node needs n*parts = " + std::to_string(n_ * parts_) +
                      " blocks, the schedule declares " + std::to_string(blocks_));
    }
    initialise();
    for (size_t step = 0; step < s_.steps().size(); ++step) {
      if (!run_step(step, result)) return result;
    }
    check_postcondition(result);
    return result;
  }

 private:
  // Every byte of the buffer belongs to exactly one block, so proving every
  // block proves every byte: per-block sizes given explicitly (block_sizes)
  // must add up to the message. All-to-all blocks are the flows themselves
  // (their own sizes with workload.distribution), so only the other
  // collectives have a buffer to cover.
  bool covers_the_buffer(Verification& result) const {
    if (s_.collective() == Collective::alltoall || s_.block_sizes().empty()) return true;
    int64_t total = 0;
    for (Bytes b : s_.block_sizes()) {
      if (b.count() < 0 || __builtin_add_overflow(total, b.count(), &total)) {
        fail(result, 0, 0, 0, "the block sizes add up past the largest size photonsim represents");
        return false;
      }
    }
    if (total == s_.message().count()) return true;
    fail(result, 0, 0, 0,
         "the " + std::to_string(blocks_) + " blocks hold " + std::to_string(total) +
             " bytes, but the buffer (message) is " + std::to_string(s_.message().count()) +
             " bytes: every byte of the buffer must be in one block, so that proving the blocks proves the "
             "collective");
    return false;
  }

  static Verification& fail(Verification& r, size_t step, Node node, uint32_t block, std::string what) {
    r.violation = Violation{step, node, block, std::move(what)};
    return r;
  }

  void initialise() {
    if (reducing_) {
      // partial_[v][b]: the inputs node v has summed into its copy of block b.
      partial_.assign(n_, std::vector<Bits>(blocks_, Bits(n_)));
      for (size_t v = 0; v < n_; ++v) {
        for (size_t b = 0; b < blocks_; ++b) partial_[v][b].set(v);
      }
      return;
    }
    held_.assign(n_, Bits(blocks_));
    switch (s_.collective()) {
      case Collective::alltoall:
        for (size_t r = 0; r < n_; ++r) {
          for (size_t d = 0; d < n_; ++d) {
            for (size_t part = 0; part < parts_; ++part) held_[r].set((r * n_ + d) * parts_ + part);
          }
        }
        break;
      case Collective::allgather:
        for (size_t v = 0; v < n_; ++v) {
          for (size_t part = 0; part < parts_; ++part) held_[v].set(v * parts_ + part);
        }
        break;
      default:  // broadcast: the root holds every segment
        for (size_t b = 0; b < blocks_; ++b) held_[static_cast<size_t>(s_.root())].set(b);
        break;
    }
  }

  Bytes expected_bytes(const Transfer& t) const {
    Bytes total;
    for (uint32_t b : t.blocks) total += s_.block_size(b);
    return total;
  }

  // An all-to-all block may travel in pieces (a flow split over several
  // rounds): a transfer carrying one block and fewer bytes than it holds. The
  // receiver holds the block once its pieces add up to the whole.
  bool is_piece(const Transfer& t) const {
    return s_.collective() == Collective::alltoall && t.blocks.size() == 1 && t.bytes.count() > 0 &&
           t.bytes < s_.block_size(t.blocks.front());
  }

  // Who sends what to whom; the sender's partial is read from the state as it
  // was when the step began (no write happens before every read is done).
  struct Delivery {
    Node dst;
    uint32_t block;
    TransferOp op;
    Node src;
    bool operator<(const Delivery& o) const {
      if (dst != o.dst) return dst < o.dst;
      if (block != o.block) return block < o.block;
      if (op != o.op) return op < o.op;
      return src < o.src;
    }
  };

  // What a step's transfers deliver, written only once every transfer of the
  // step has been read.
  struct StepDeliveries {
    std::vector<Delivery> whole;             // blocks sent whole
    std::vector<Delivery> completed_pieces;  // all-to-all blocks whose last piece arrives
  };

  bool run_step(size_t step, Verification& result) {
    StepDeliveries delivered;
    for (const Transfer& t : s_.steps()[step].transfers) {
      ++result.transfers;
      if (!read_transfer(step, t, delivered, result)) return false;
    }
    if (!reducing_) {
      for (const Delivery& d : delivered.whole) held_[d.dst].set(d.block);
      for (const Delivery& d : delivered.completed_pieces) held_[d.dst].set(d.block);
      return true;
    }
    return write_partials(step, delivered.whole, result);
  }

  bool read_transfer(size_t step, const Transfer& t, StepDeliveries& delivered, Verification& result) {
    if (t.blocks.empty()) {
      if (t.bytes.count() == 0) return true;
      fail(result, step, t.src, 0,
           "transfer " + edge(t) + " carries " + std::to_string(t.bytes.count()) + " bytes but no blocks");
      return false;
    }
    for (uint32_t b : t.blocks) {
      if (b >= blocks_) {
        fail(
            result, step, t.src, b,
            "transfer " + edge(t) + " names block " + std::to_string(b) + " outside 0.." + std::to_string(blocks_ - 1));
        return false;
      }
    }
    if (is_piece(t)) return read_piece(step, t, delivered.completed_pieces, result);
    return read_whole_blocks(step, t, delivered.whole, result);
  }

  bool read_piece(size_t step, const Transfer& t, std::vector<Delivery>& completed_pieces, Verification& result) {
    const uint32_t b = t.blocks.front();
    ++result.block_moves;
    if (!held_[t.src].test(b)) {
      fail(result, step, t.src, b,
           "node " + std::to_string(t.src) + " sends part of block " + std::to_string(b) + " it does not hold");
      return false;
    }
    Bytes& got = pieces_[{t.dst, b}];
    got += t.bytes;
    if (got > s_.block_size(b)) {
      fail(result, step, t.dst, b,
           "node " + std::to_string(t.dst) + " receives " + std::to_string(got.count()) + " bytes of block " +
               std::to_string(b) + ", which has " + std::to_string(s_.block_size(b).count()));
      return false;
    }
    if (got == s_.block_size(b)) completed_pieces.push_back({t.dst, b, t.op, t.src});
    return true;
  }

  bool read_whole_blocks(size_t step, const Transfer& t, std::vector<Delivery>& deliveries, Verification& result) {
    const Bytes expected = expected_bytes(t);
    if (t.bytes != expected) {
      fail(result, step, t.src, t.blocks.front(),
           "transfer " + edge(t) + " carries " + std::to_string(t.bytes.count()) + " bytes for blocks worth " +
               std::to_string(expected.count()));
      return false;
    }
    if (!reducing_ && t.op == TransferOp::reduce) {
      fail(result, step, t.src, t.blocks.front(),
           std::string("transfer ") + edge(t) + " reduces in a " + to_string(s_.collective()) +
               ", which has nothing to reduce");
      return false;
    }
    for (uint32_t b : t.blocks) {
      ++result.block_moves;
      if (!sender_has(step, t, b, result)) return false;
      deliveries.push_back({t.dst, b, t.op, t.src});
    }
    return true;
  }

  bool sender_has(size_t step, const Transfer& t, uint32_t b, Verification& result) {
    if (reducing_) {
      if (!partial_[t.src][b].empty()) return true;
      fail(result, step, t.src, b,
           "node " + std::to_string(t.src) + " sends block " + std::to_string(b) + " it holds no partial of");
      return false;
    }
    if (held_[t.src].test(b)) return true;
    fail(result, step, t.src, b,
         "node " + std::to_string(t.src) + " sends block " + std::to_string(b) + " it does not hold");
    return false;
  }

  // Copies replace a node's partial, reductions add to it: both in one step
  // for the same (node, block) would depend on an order that does not exist.
  bool write_partials(size_t step, std::vector<Delivery>& deliveries, Verification& result) {
    std::sort(deliveries.begin(), deliveries.end());
    std::vector<std::pair<const Delivery*, Bits>> writes;
    for (size_t i = 0; i < deliveries.size();) {
      const Delivery& first = deliveries[i];
      size_t end = i + 1;
      while (end < deliveries.size() && deliveries[end].dst == first.dst && deliveries[end].block == first.block) ++end;
      if (end - i > 1 && (first.op == TransferOp::copy || deliveries[end - 1].op == TransferOp::copy)) {
        fail(result, step, first.dst, first.block,
             "node " + std::to_string(first.dst) + " receives block " + std::to_string(first.block) +
                 " from several transfers that overwrite each other");
        return false;
      }
      if (first.op == TransferOp::copy) {
        writes.emplace_back(&first, partial_[first.src][first.block]);
      } else {
        Bits sum = partial_[first.dst][first.block];
        if (!add_inputs(step, deliveries, i, end, sum, result)) return false;
        writes.emplace_back(&first, std::move(sum));
      }
      i = end;
    }
    for (auto& [delivery, bits] : writes) partial_[delivery->dst][delivery->block] = std::move(bits);
    return true;
  }

  // Adds the senders' partials of deliveries [begin, end) (one node, one
  // block) into `sum`; false on an input added twice.
  bool add_inputs(size_t step, const std::vector<Delivery>& deliveries, size_t begin, size_t end, Bits& sum,
                  Verification& result) const {
    for (size_t j = begin; j < end; ++j) {
      const Delivery& d = deliveries[j];
      const Bits& inputs = partial_[d.src][d.block];
      const int64_t twice = sum.first_common(inputs);
      if (twice >= 0) {
        fail(result, step, d.dst, d.block,
             "node " + std::to_string(d.dst) + " adds the input of node " + std::to_string(twice) + " to block " +
                 std::to_string(d.block) + " twice (from node " + std::to_string(d.src) + ")");
        return false;
      }
      sum.merge(inputs);
    }
    return true;
  }

  void check_postcondition(Verification& result) {
    const size_t end = s_.steps().size();
    switch (s_.collective()) {
      case Collective::alltoall:
        for (size_t r = 0; r < n_; ++r) {
          for (size_t d = 0; d < n_; ++d) {
            for (size_t part = 0; part < parts_; ++part) {
              const auto block = static_cast<uint32_t>((r * n_ + d) * parts_ + part);
              if (held_[d].test(block)) continue;
              const auto got = pieces_.find({static_cast<Node>(d), block});
              const std::string how = got == pieces_.end()
                                          ? "never reaches node " + std::to_string(d)
                                          : "reaches node " + std::to_string(d) +
                                                " only in part: " + std::to_string(got->second.count()) + " of " +
                                                std::to_string(s_.block_size(block).count()) + " bytes";
              const std::string which = parts_ > 1 ? " part " + std::to_string(part) : "";
              fail(result, end, static_cast<Node>(d), block,
                   "block (" + std::to_string(r) + ", " + std::to_string(d) + ")" + which + " " + how);
              return;
            }
          }
        }
        return;
      case Collective::allgather:
      case Collective::broadcast:
        for (size_t v = 0; v < n_; ++v) {
          const size_t missing = held_[v].first_missing(blocks_);
          if (missing < blocks_) {
            fail(result, end, static_cast<Node>(v), static_cast<uint32_t>(missing),
                 "node " + std::to_string(v) + " ends without block " + std::to_string(missing));
            return;
          }
        }
        return;
      case Collective::reducescatter:
      case Collective::allreduce:
        for (size_t v = 0; v < n_; ++v) {
          for (size_t b = 0; b < blocks_; ++b) {
            if (s_.collective() == Collective::reducescatter && b / parts_ != v) continue;
            const size_t missing = partial_[v][b].first_missing(n_);
            if (missing < n_) {
              fail(result, end, static_cast<Node>(v), static_cast<uint32_t>(b),
                   "node " + std::to_string(v) + " ends with block " + std::to_string(b) +
                       " missing the input of node " + std::to_string(missing));
              return;
            }
          }
        }
        return;
    }
  }

  static std::string edge(const Transfer& t) { return std::to_string(t.src) + "->" + std::to_string(t.dst); }

  const Schedule& s_;
  size_t n_;
  size_t parts_;  // all-to-all: parts per flow; all-gather, reduce-scatter: blocks per node
  size_t blocks_;
  bool reducing_;
  std::vector<Bits> held_;
  std::map<std::pair<Node, uint32_t>, Bytes> pieces_;  // bytes of a block received so far, per receiver
  std::vector<std::vector<Bits>> partial_;
};

}  // namespace

std::string Violation::describe() const {
  return "step " + std::to_string(step) + ", node " + std::to_string(node) + ", block " + std::to_string(block) + ": " +
         what;
}

Verification verify_schedule(const Schedule& schedule) {
  if (schedule.custom()) {
    Verification v;
    v.not_proven = "a custom collective (MSCCL coll=\"custom\") has no post-condition to prove";
    for (const Step& step : schedule.steps()) v.transfers += step.transfers.size();
    return v;
  }
  return Verifier(schedule).run();
}

uint64_t verifier_memory_estimate(const Schedule& schedule) {
  const auto n = static_cast<uint64_t>(schedule.gpus());
  const uint64_t blocks = schedule.blocks();
  const auto bitset_bytes = [](uint64_t bits) { return (bits + 63) / 64 * 8 + 32; };
  const long double bytes = reduces(schedule.collective()) ? static_cast<long double>(n) * blocks * bitset_bytes(n)
                                                           : static_cast<long double>(n) * bitset_bytes(blocks);
  return bytes > 1.8e19L ? UINT64_MAX : static_cast<uint64_t>(bytes);
}

}  // namespace photonsim
