#include "schedules/planners/port_split.h"

#include <set>

namespace photonsim {

std::vector<std::vector<Transfer>> split_to_ports(const std::vector<Transfer>& transfers, const FabricSpec& fabric) {
  struct Group {
    std::vector<Transfer> transfers;
    std::set<Edge> circuits;
    std::vector<int> out, in;
  };
  const bool bidirectional = fabric.circuits == CircuitKind::bidirectional;
  std::vector<Group> groups;
  for (const Transfer& t : transfers) {
    Group* home = nullptr;
    for (Group& g : groups) {
      if (g.circuits.count({t.src, t.dst}) || (bidirectional && g.circuits.count({t.dst, t.src}))) {
        home = &g;
        break;
      }
      const bool fits = bidirectional ? g.out[t.src] < fabric.ports && g.out[t.dst] < fabric.ports
                                      : g.out[t.src] < fabric.ports && g.in[t.dst] < fabric.ports;
      if (fits) {
        home = &g;
        break;
      }
    }
    if (!home) {
      groups.push_back(Group{{},
                             {},
                             std::vector<int>(static_cast<size_t>(fabric.gpus), 0),
                             std::vector<int>(static_cast<size_t>(fabric.gpus), 0)});
      home = &groups.back();
    }
    if (!home->circuits.count({t.src, t.dst}) && !(bidirectional && home->circuits.count({t.dst, t.src}))) {
      home->circuits.insert({t.src, t.dst});
      ++home->out[t.src];
      ++home->in[t.dst];
      if (bidirectional) {
        home->circuits.insert({t.dst, t.src});
        ++home->out[t.dst];
        ++home->in[t.src];
      }
    }
    home->transfers.push_back(t);
  }
  std::vector<std::vector<Transfer>> out;
  for (Group& g : groups) out.push_back(std::move(g.transfers));
  return out;
}

}  // namespace photonsim
