#pragma once
// Contract: the block sets of a butterfly reduce-scatter / all-gather, shared
// by rhd, swing and bine. A butterfly runs over `ranks` ranks (a power of two)
// in log2(ranks) steps; `peer(rank, step)` pairs the ranks of each step (an
// involution: peer(peer(r, s), s) == r). Rank r owns the blocks listed in
// `blocks_of_rank[r]`. In reduce-scatter step s a rank reduces into its peer
// the blocks owned by the ranks the peer still reaches in steps s+1.. (Swing's
// "reachable" sets, which for XOR peers are recursive halving), so rank r ends
// with its own blocks fully reduced. The all-gather is the mirror: the steps
// run in reverse order and each rank copies to its peer everything it holds.
// Ranks sit on fabric nodes `node_of_rank[r]`, which lets rhd fold a
// non-power-of-two n onto a power-of-two butterfly.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/units.h"
#include "core/spec/workload_spec.h"
#include "schedules/model/transfer.h"

namespace photonsim {

class Butterfly {
 public:
  using Peer = std::function<int(int rank, int step)>;

  struct Placement {
    std::vector<Node> node_of_rank;                     // one per rank
    std::vector<std::vector<uint32_t>> blocks_of_rank;  // one list per rank
    Bytes message;                                      // sizes blocks (block_sizes.h)
    uint32_t blocks = 0;                                // how many blocks the message is cut into
  };

  // Rank u on node u owning block u: n = ranks, blocks = n.
  static Placement one_block_per_node(int n, Bytes message);

  Butterfly(int ranks, Peer peer) : ranks_(ranks), peer_(std::move(peer)) {}

  int ranks() const { return ranks_; }
  int steps() const;  // log2(ranks)

  // Throws std::logic_error if `peer` is not a butterfly (a rank would reach
  // another twice), which is a bug in the calling algorithm, not bad input.
  std::vector<std::vector<Transfer>> reduce_scatter(const Placement& placement) const;
  std::vector<std::vector<Transfer>> all_gather(const Placement& placement) const;
  // What `collective` needs: the reduce-scatter, the all-gather, or both in turn.
  std::vector<std::vector<Transfer>> phases(const Placement& placement, Collective collective) const;

 private:
  // reach[s][r]: the ranks r reaches in steps s..steps()-1, sorted (reach[steps()][r] == {r}).
  std::vector<std::vector<std::vector<int>>> reach() const;
  static Transfer carry(const Placement& placement, int from, int to, const std::vector<int>& owners, TransferOp op);

  int ranks_;
  Peer peer_;
};

}  // namespace photonsim
