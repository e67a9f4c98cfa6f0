#pragma once
// Contract: the algorithms (collective algorithms and joint synthesizers) and
// planners keyed by their YAML names (synthesis.algorithm,
// synthesis.planner), each registered by its type and describing itself
// (info(), supports()). synthesizer() checks the names and their combination
// - an unknown name (listing the valid ones), a collective the algorithm does
// not implement, per-pair flow sizes for an algorithm of equal blocks, a
// planner the algorithm cannot run with - and returns the one Synthesizer
// that turns the specs into a predicted Schedule. synthesize(), plan_all()
// and synthesize_point_to_point() plan on planning_fabric(fabric)
// (core/spec/planning_failures.h: the switches that survive the failures
// known when planning), the physical layer built from `fabric` itself.
// Registries are values built by with_builtins(); adding an algorithm means
// one new file and one add line in builtin_synthesizers.cpp.
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/spec/fabric_spec.h"
#include "core/spec/synthesis_spec.h"
#include "core/spec/workload_spec.h"
#include "schedules/algorithms/collective_algorithm.h"
#include "schedules/alltoall/joint_synthesizer.h"
#include "schedules/model/schedule.h"
#include "schedules/synthesis/pattern_synthesizer.h"
#include "schedules/synthesis/plan_candidate.h"
#include "schedules/planners/planner.h"
#include "schedules/synthesis/synthesizer.h"
#include "topology/topology_registry.h"

namespace photonsim {

class SynthesizerRegistry {
 public:
  struct AlgorithmEntry {
    AlgorithmInfo info;
    std::shared_ptr<const CollectiveAlgorithm> algorithm;  // set for pattern algorithms
    std::shared_ptr<const JointSynthesizer> joint;         // set for joint synthesizers
    bool is_joint() const { return joint != nullptr; }
    bool supports(int gpus, int ports) const {
      return joint ? joint->supports(gpus, ports) : algorithm->supports(gpus, ports);
    }
  };
  using PlannerEntry = PatternSynthesizer::PlannerChoice;

  static SynthesizerRegistry with_builtins();

  // T is a CollectiveAlgorithm or a JointSynthesizer, built from `args`.
  template <class T, class... Args>
  void add_algorithm(Args&&... args) {
    auto component = std::make_shared<const T>(std::forward<Args>(args)...);
    AlgorithmEntry entry{component->info(), nullptr, nullptr};
    if constexpr (std::is_base_of_v<JointSynthesizer, T>) {
      entry.joint = component;
    } else {
      entry.algorithm = component;
    }
    algorithms_.push_back(std::move(entry));
  }
  template <class T, class... Args>
  void add_planner(Args&&... args) {
    auto planner = std::make_shared<const T>(std::forward<Args>(args)...);
    planners_.push_back({planner->info(), planner});
  }

  // The synthesizer of a task graph's p2p nodes (one transfer between two GPUs).
  template <class T, class... Args>
  void set_point_to_point(Args&&... args) {
    point_to_point_ = std::make_shared<const T>(std::forward<Args>(args)...);
  }
  std::unique_ptr<Synthesizer> synthesizer(const WorkloadSpec& workload, const SynthesisSpec& synthesis) const;
  // `bytes` from GPU 0 to GPU 1 on `fabric`'s links, from the registered
  // point-to-point synthesizer (throws Error when none is registered).
  Schedule synthesize_point_to_point(const FabricSpec& fabric, Bytes bytes) const;
  // synthesizer(...)->synthesize(...). `seed` feeds seeded workloads and
  // randomised topology generators; `progress` hears how a long synthesis advances.
  Schedule synthesize(const FabricSpec& fabric, const WorkloadSpec& workload, const SynthesisSpec& synthesis,
                      uint64_t seed = 1, WorkProgress* progress = nullptr) const;
  // synthesizer(...)->candidates(...): every planner but `exhaustive`, or a
  // joint synthesizer's every d.
  std::vector<PlanCandidate> plan_all(const FabricSpec& fabric, const WorkloadSpec& workload,
                                      const SynthesisSpec& synthesis, uint64_t seed = 1,
                                      CandidateDetail detail = CandidateDetail::schedules,
                                      WorkProgress* progress = nullptr) const;

  const std::vector<AlgorithmEntry>& algorithms() const { return algorithms_; }
  const std::vector<PlannerEntry>& planners() const { return planners_; }
  // Every name synthesis.planner accepts, in `list` order: `joint`, the registered planners, `auto`.
  std::vector<PlannerInfo> planner_infos() const;
  const TopologyRegistry& topologies() const { return topologies_; }
  const AlgorithmEntry& algorithm(const std::string& name) const;

 private:
  std::string algorithm_names(bool (*keep)(const AlgorithmEntry&)) const;
  void check_planner(const AlgorithmEntry& algorithm, const SynthesisSpec& synthesis) const;

  std::vector<AlgorithmEntry> algorithms_;
  std::vector<PlannerEntry> planners_;
  TopologyRegistry topologies_ = TopologyRegistry::with_builtin_generators();
  std::shared_ptr<const Synthesizer> point_to_point_;
};

}  // namespace photonsim
