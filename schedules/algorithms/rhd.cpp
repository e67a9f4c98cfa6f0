#include "schedules/algorithms/rhd.h"

#include "schedules/model/block_sizes.h"
#include "schedules/algorithms/butterfly.h"

namespace photonsim {

AlgorithmInfo Rhd::info() const {
  return {"rhd",
          {Collective::allreduce, Collective::reducescatter, Collective::allgather},
          "static",
          "Rabenseifner recursive halving + doubling, any n (fold to 2^floor(log2 n): +2 steps)"};
}

bool Rhd::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

namespace {

Transfer transfer(int src, int dst, std::vector<uint32_t> blocks, TransferOp op, Bytes message, uint32_t n) {
  Transfer t;
  t.src = static_cast<Node>(src);
  t.dst = static_cast<Node>(dst);
  t.bytes = blocks_bytes(message, n, blocks);
  t.blocks = std::move(blocks);
  t.op = op;
  return t;
}

// Blocks 0..n-1 except `skip` (pass n to skip none).
std::vector<uint32_t> blocks_except(uint32_t n, uint32_t skip) {
  std::vector<uint32_t> blocks;
  for (uint32_t b = 0; b < n; ++b) {
    if (b != skip) blocks.push_back(b);
  }
  return blocks;
}

}  // namespace

StepPattern Rhd::pattern(const AlgorithmInput& input) const {
  const int n = input.gpus();
  const auto blocks = static_cast<uint32_t>(n);
  int p = 1;
  while (p * 2 <= n) p *= 2;
  const int r = n - p;
  const Collective c = input.workload.collective;
  const bool reducing = c != Collective::allgather;

  // Rank j < r stands for the pair (2j, 2j+1) and sits on 2j+1.
  Butterfly::Placement placement;
  placement.message = input.workload.message;
  placement.blocks = blocks;
  for (int j = 0; j < p; ++j) {
    if (j < r) {
      placement.node_of_rank.push_back(static_cast<Node>(2 * j + 1));
      placement.blocks_of_rank.push_back({static_cast<uint32_t>(2 * j), static_cast<uint32_t>(2 * j + 1)});
    } else {
      placement.node_of_rank.push_back(static_cast<Node>(j + r));
      placement.blocks_of_rank.push_back({static_cast<uint32_t>(j + r)});
    }
  }
  const Butterfly butterfly(p, [p](int rank, int step) { return rank ^ (p >> (step + 1)); });

  StepPattern pattern;
  pattern.blocks = blocks;
  const Bytes m = input.workload.message;
  if (r > 0) {
    std::vector<Transfer> fold_in;
    for (int j = 0; j < r; ++j) {
      const auto even = static_cast<uint32_t>(2 * j);
      fold_in.push_back(reducing
                            ? transfer(2 * j, 2 * j + 1, blocks_except(blocks, blocks), TransferOp::reduce, m, blocks)
                            : transfer(2 * j, 2 * j + 1, {even}, TransferOp::copy, m, blocks));
    }
    pattern.steps.push_back(std::move(fold_in));
  }
  for (auto& step : butterfly.phases(placement, c)) pattern.steps.push_back(std::move(step));
  if (r > 0) {
    // 2j needs back its own block (reduce-scatter), every block (AllReduce: its
    // copies are unreduced) or every block but the one it started with (all-gather).
    std::vector<Transfer> fold_out;
    for (int j = 0; j < r; ++j) {
      const auto even = static_cast<uint32_t>(2 * j);
      std::vector<uint32_t> back = c == Collective::reducescatter ? std::vector<uint32_t>{even}
                                   : c == Collective::allgather   ? blocks_except(blocks, even)
                                                                  : blocks_except(blocks, blocks);
      fold_out.push_back(transfer(2 * j + 1, 2 * j, std::move(back), TransferOp::copy, m, blocks));
    }
    pattern.steps.push_back(std::move(fold_out));
  }
  return pattern;
}

}  // namespace photonsim
