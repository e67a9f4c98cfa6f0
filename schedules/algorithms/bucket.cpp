#include "schedules/algorithms/bucket.h"

#include <cstdint>
#include <string>

#include "schedules/model/block_sizes.h"
#include "topology/balanced_factors.h"

namespace photonsim {

AlgorithmInfo Bucket::info() const {
  return {"bucket",
          {Collective::allreduce, Collective::reducescatter, Collective::allgather},
          "static",
          "bucket on a 2D/3D torus: ring reduce-scatter along each dimension, all-gather mirrored",
          {ParameterSpec::computed("dims", ParameterType::dimensions, "the most balanced AxB of n",
                                   "the torus shape, multiplying to n")}};
}

bool Bucket::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

std::vector<int> Bucket::dimensions(const AlgorithmInput& input) {
  const int n = input.gpus();
  if (!input.params.has("dims")) return balanced_factors(n, 2);
  const std::vector<int> dims = input.params.dimensions("dims");
  int64_t product = 1;
  std::string text;
  for (int d : dims) {
    product *= d;
    text += (text.empty() ? "" : "x") + std::to_string(d);
  }
  if (product != n) {
    input.params.fail("dims", "needs n to be the product of the torus dims: " + text + " has " +
                                  std::to_string(product) + " nodes but fabric.gpus is " + std::to_string(n));
  }
  return dims;
}

StepPattern Bucket::pattern(const AlgorithmInput& input) const {
  const int n = input.gpus();
  const std::vector<int> dims = dimensions(input);
  const size_t rank = dims.size();
  std::vector<int> stride(rank, 1);
  for (size_t k = rank - 1; k > 0; --k) stride[k - 1] = stride[k] * dims[k];
  StepPattern pattern;
  pattern.blocks = static_cast<uint32_t>(n);

  // One ring step along dimension k: every node u at coordinate c sends the
  // blocks agreeing with u on coordinates 0..k-1 whose coordinate k is
  // group(c); they are contiguous because the dimensions after k vary fastest.
  auto ring_step = [&](size_t k, int s, TransferOp op) {
    const int size = dims[k];
    std::vector<Transfer> step;
    for (int u = 0; u < n; ++u) {
      const int c = (u / stride[k]) % size;
      const int group = op == TransferOp::reduce ? ((c - s - 1) % size + size) % size : ((c - s) % size + size) % size;
      const int prefix = u - u % (stride[k] * size);  // u's coordinates 0..k-1
      Transfer t;
      t.src = static_cast<Node>(u);
      t.dst = static_cast<Node>(u + ((c + 1) % size - c) * stride[k]);
      for (int i = 0; i < stride[k]; ++i) t.blocks.push_back(static_cast<uint32_t>(prefix + group * stride[k] + i));
      t.bytes = blocks_bytes(input.workload.message, pattern.blocks, t.blocks);
      t.op = op;
      step.push_back(std::move(t));
    }
    pattern.steps.push_back(std::move(step));
  };
  const Collective c = input.workload.collective;
  if (c != Collective::allgather) {
    for (size_t k = 0; k < rank; ++k) {
      for (int s = 0; s + 1 < dims[k]; ++s) ring_step(k, s, TransferOp::reduce);
    }
  }
  if (c != Collective::reducescatter) {
    for (size_t k = rank; k-- > 0;) {
      for (int s = 0; s + 1 < dims[k]; ++s) ring_step(k, s, TransferOp::copy);
    }
  }
  return pattern;
}

}  // namespace photonsim
