#pragma once
// Contract: the flows of a step and the circuits each crosses, as indices
// into the topology's sorted edge list. A transfer is one flow, or one flow
// per route when it carries a multipath split. Explicit paths are followed
// hop by hop; others take the router's shortest path. Among parallel
// circuits u -> v, transfer i takes circuit (i mod multiplicity), so parallel
// circuits share the load; the routes of a split take them in turn from
// there (the k-th of its routes over u -> v takes circuit (i + k) mod
// multiplicity), so a max-concurrent-flow split over parallel circuits
// uses them all. Simulator and cost models both route through
// here. Throws Error naming the step, transfer and nodes when a hop is not a
// circuit or dst is unreachable.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/units.h"
#include "schedules/model/step.h"
#include "topology/topology.h"

namespace photonsim {

using LinkRoute = std::vector<uint32_t>;

struct RoutedFlow {
  size_t transfer = 0;  // index of the transfer in the step
  LinkRoute links;
  Bytes bytes;
};

std::vector<RoutedFlow> route_step(const Step& step, const Topology& topology, size_t step_index);
// The same flows in the same order, handed over one at a time: a caller that
// only adds up loads holds one route at a time, where a step of every
// all-to-all pair at once would hold O(n^3) links.
void for_each_routed_flow(const Step& step, const Topology& topology, size_t step_index,
                          const std::function<void(RoutedFlow&&)>& visit);

}  // namespace photonsim
