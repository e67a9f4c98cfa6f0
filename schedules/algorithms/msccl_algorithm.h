#pragma once
// Contract: an MSCCL XML algorithm or an MSCCL++ JSON execution plan as a
// collective algorithm (synthesis.algorithm: {type: msccl, file: algo.xml |
// plan.json}, the path relative to the config's folder): the file's
// transfers by dependency level become the steps
// (schedules/msccl/msccl_file_reader.h), sized from workload.message (the
// file's nchunksperloop chunks, as MSCCL cuts the buffer), so any planner can
// choose topologies for them and the verifier proves them. The file must
// match the fabric's GPU count, the workload's collective and, for a
// broadcast, its root, and its minBytes..maxBytes must hold the buffer; an
// Error names the file and what differs. `file` may list several (one path
// a line, as the config loader passes a YAML list): the first whose
// collective, ngpus and range fit runs, as MSCCL picks among its loaded
// algorithms. A coll="custom" program runs under workload.collective: its
// blocks are each GPU's nchunksperloop input chunks (the message cut into
// ngpus x nchunksperloop), and the schedule is marked custom, so the verifier
// proves nothing of it and says so.
#include "schedules/algorithms/collective_algorithm.h"

namespace photonsim {

class MscclAlgorithm : public CollectiveAlgorithm {
 public:
  AlgorithmInfo info() const override;
  bool supports(int gpus, int ports) const override;
  StepPattern pattern(const AlgorithmInput& input) const override;
};

}  // namespace photonsim
