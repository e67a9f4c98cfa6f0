#pragma once
// Contract: which communication before a task-graph node holds one of its
// ports (fabric.preconfigure: a node may take its ports once all of those
// have ended). For each node v, a cover of B(v), the nodes v waits for
// (directly or not) that use one of v's resources: every member is in B(v),
// and every node of B(v) is a member or is waited for by one. Since a node
// ends after everything it waits for, the last of B(v) to end is always a
// member: waiting for the cover is waiting for B(v). Ascending, no repeats.
// Per resource, the users before each user that something waits for (a
// node nothing waits for waits on no port of anyone's) are searched
// backwards, one reachability query (core/reachability.h) each, jumping past
// every run of them the found one waits for: on ports whose users are ordered
// (a chain) one query per node and resource, never the all-pairs closure;
// sends that nothing waits for cost nothing however many share a port; k
// mutually unordered users of one port that others wait for cost O(k^2)
// constant-time queries.
#include <cstdint>
#include <vector>

#include "core/task_graph.h"

namespace photonsim {

// `resources[v]`: the resources node v holds (ids below `resource_count`; none: compute).
std::vector<std::vector<uint32_t>> port_blockers(const TaskGraph& graph,
                                                 const std::vector<std::vector<uint32_t>>& resources,
                                                 size_t resource_count);

}  // namespace photonsim
