#include "schedules/algorithms/msccl_algorithm.h"

#include "core/error.h"
#include "core/input_file.h"
#include "schedules/model/block_sizes.h"
#include "schedules/msccl/msccl_file_reader.h"

namespace photonsim {

AlgorithmInfo MscclAlgorithm::info() const {
  return {
      "msccl",
      {Collective::allreduce, Collective::reducescatter, Collective::allgather, Collective::alltoall,
       Collective::broadcast},
      "static",
      "an MSCCL XML algorithm (msccl-tools, TACCL, TE-CCL) or an MSCCL++ JSON execution plan: thread-block "
      "steps become transfers, dependency levels become steps",
      {ParameterSpec::computed("file", ParameterType::text, "",
                               "the MSCCL XML file or MSCCL++ JSON plan, relative to the config's folder; or a list "
                               "of them, of which the first whose collective, GPU count and size range fit runs (as "
                               "MSCCL picks)")},
      "the file's ngpus",
      false,
      true};
}

bool MscclAlgorithm::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

namespace {

// MSCCL's nBytes: the whole buffer (count x type size x sizeMultiplier).
int64_t buffer_bytes(const WorkloadSpec& w, int gpus) {
  if (w.collective != Collective::alltoall) return w.message.count();
  int64_t whole = 0;
  return __builtin_mul_overflow(w.message.count(), static_cast<int64_t>(gpus), &whole) ? INT64_MAX : whole;
}

std::string range_of(const MscclProgram& p) {
  return std::to_string(p.min_bytes) + ".." +
         (p.max_bytes == 0 ? std::string("unbounded") : std::to_string(p.max_bytes));
}

bool fits(const MscclProgram& p, int64_t bytes) {
  return bytes >= p.min_bytes && (p.max_bytes == 0 || bytes <= p.max_bytes);
}

// One file, or the first of a list (one path a line, as the config loader
// writes it) that MSCCL would run for this collective, GPU count and size.
std::pair<MscclProgram, std::string> chosen_program(const AlgorithmInput& input) {
  const std::string list = input.params.text("file");
  std::vector<std::string> paths;
  for (size_t begin = 0; begin <= list.size();) {
    const size_t end = std::min(list.find('\n', begin), list.size());
    if (end > begin) paths.push_back(list.substr(begin, end - begin));
    begin = end + 1;
  }
  if (paths.empty()) throw Error("synthesis.algorithm: msccl needs file: ALGO.xml (or a list of them)");
  const WorkloadSpec& w = input.workload;
  const int64_t bytes = buffer_bytes(w, input.gpus());
  std::string tried;
  for (const std::string& path : paths) {
    const std::string text = read_input_file(path, kMscclInput);
    const bool is_plan = is_mscclpp_plan(text);
    MscclProgram program = read_msccl_file(text, path);
    const bool collective_fits = program.custom || program.collective == w.collective;
    if (paths.size() == 1 || (collective_fits && program.gpus == input.gpus() && fits(program, bytes))) {
      if (!fits(program, bytes)) {
        throw Error(path + ": MSCCL runs this algorithm for buffers of " + range_of(program) + " bytes (" +
                    (is_plan ? "min_message_size..max_message_size" : "minBytes..maxBytes") + "), not " +
                    std::to_string(bytes) +
                    " (the whole buffer, as MSCCL counts it); give a list of files to choose among");
      }
      return {std::move(program), path};
    }
    tried += (tried.empty() ? "" : "; ") + path + ": " + (program.custom ? "custom" : to_string(program.collective)) +
             " on " + std::to_string(program.gpus) + " GPUs, " + range_of(program) + " bytes";
  }
  throw Error(std::string("synthesis.algorithm: no MSCCL file of the list runs a ") + to_string(w.collective) + " of " +
              std::to_string(bytes) + " bytes (the whole buffer) on " + std::to_string(input.gpus()) + " GPUs (" +
              tried + ")");
}

}  // namespace

StepPattern MscclAlgorithm::pattern(const AlgorithmInput& input) const {
  // Not a structured binding: the lambdas below capture it (clang 14).
  const std::pair<MscclProgram, std::string> chosen = chosen_program(input);
  const MscclProgram& program = chosen.first;
  const std::string& path = chosen.second;
  const WorkloadSpec& w = input.workload;
  if (program.gpus != input.gpus())
    throw Error(path + ": the algorithm is for ngpus = " + std::to_string(program.gpus) + " GPUs, fabric.gpus is " +
                std::to_string(input.gpus()));
  if (!program.custom && program.collective != w.collective)
    throw Error(path + ": the algorithm's collective is " + to_string(program.collective) +
                ", workload.collective is " + to_string(w.collective));
  if (!program.custom && program.collective == Collective::broadcast && program.root != w.root)
    throw Error(path + ": the broadcast is from root " + std::to_string(program.root) + ", workload.root is " +
                std::to_string(w.root));
  StepPattern pattern;
  pattern.blocks = program.blocks;
  pattern.block_parts = program.block_parts;
  pattern.custom = program.custom;
  const auto block_size = [&](uint32_t b) {
    if (program.custom) return block_bytes(w.message, program.blocks, b);
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
  // A custom program's blocks are its chunks, whatever the collective's
  // numbering: sized explicitly, so the schedule answers for each.
  if (program.custom) {
    for (uint32_t b = 0; b < program.blocks; ++b) pattern.block_sizes.push_back(block_size(b));
  }
  return pattern;
}

}  // namespace photonsim
