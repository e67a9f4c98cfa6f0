#pragma once
// Contract: `photonsim bound`'s output: the lower bound on the all-to-all
// paper's transmission term for n GPUs, k ports and d configured topologies -
// one d, or every d in 1..n-1 - and, with `compare`, rdc's hop sum for the
// same (n, k, d) and its ratio to the bound (Figure 13). The numbers come
// computed (schedules/reconfiguration_bound_table.h): a report runs
// no synthesizer. Keys (JSON and CSV columns, a contract): `gpus`, `ports`,
// `reconfigs`, `transmission_T`, and with compare `rdc_T`, `ratio`; for every
// d, JSON wraps rows in `bounds` and adds `worst_ratio`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "schedules/reconfiguration_bound_table.h"

namespace photonsim {

struct BoundReport {
  using Row = ReconfigurationBoundRow;
  // rdc_T / transmission_T, when compared and rdc builds the row's d.
  static std::optional<double> ratio(const Row& row);
  int gpus = 0;
  int ports = 0;
  bool single = false;  // one d asked for
  bool compared = false;
  std::vector<Row> rows;

  // `single`: one d was asked for; `compared`: rows carry rdc's hop sums.
  static BoundReport of(int gpus, int ports, bool single, bool compared, std::vector<Row> rows);
  std::optional<double> worst_ratio() const;
  std::string table() const;
  std::string json() const;
  std::string csv() const;
};

}  // namespace photonsim
