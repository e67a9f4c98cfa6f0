#include "schedules/algorithms/msccl_algorithm.h"

#include "core/error.h"
#include "core/input_file.h"
#include "schedules/model/block_sizes.h"
#include "schedules/msccl/msccl_reader.h"

namespace photonsim {

AlgorithmInfo MscclAlgorithm::info() const {
  return {
      "msccl",
      {Collective::allreduce, Collective::reducescatter, Collective::allgather, Collective::alltoall,
       Collective::broadcast},
      "static",
      "an MSCCL XML algorithm (msccl-tools, TACCL, TE-CCL): thread-block steps become transfers, dependency "
      "levels become steps",
      {ParameterSpec::computed("file", ParameterType::text, "", "the MSCCL XML file, relative to the config's folder")},
      "the file's ngpus",
      false,
      true};
}

bool MscclAlgorithm::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

StepPattern MscclAlgorithm::pattern(const AlgorithmInput& input) const {
  const std::string path = input.params.text("file");
  const MscclProgram program = read_msccl_xml(read_input_file(path, kMscclInput), path);
  const WorkloadSpec& w = input.workload;
  if (program.gpus != input.gpus())
    throw Error(path + ": the algorithm is for ngpus = " + std::to_string(program.gpus) + " GPUs, fabric.gpus is " +
                std::to_string(input.gpus()));
  if (program.collective != w.collective)
    throw Error(path + ": the algorithm's collective is " + to_string(program.collective) +
                ", workload.collective is " + to_string(w.collective));
  if (program.collective == Collective::broadcast && program.root != w.root)
    throw Error(path + ": the broadcast is from root " + std::to_string(program.root) + ", workload.root is " +
                std::to_string(w.root));
  StepPattern pattern;
  pattern.blocks = program.blocks;
  pattern.block_parts = program.block_parts;
  const auto block_size = [&](uint32_t b) {
    if (program.collective == Collective::alltoall)
      return block_bytes(w.message, program.block_parts, b % program.block_parts);
    return block_bytes(w.message, program.blocks, b);
  };
  for (const auto& level : program.levels) {
    std::vector<Transfer> step;
    for (Transfer t : level) {
      t.bytes = Bytes(0);
      for (uint32_t b : t.blocks) t.bytes += block_size(b);
      step.push_back(std::move(t));
    }
    pattern.steps.push_back(std::move(step));
  }
  return pattern;
}

}  // namespace photonsim
