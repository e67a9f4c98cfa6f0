#pragma once
// Contract: `photonsim bound`: the lower bound on the all-to-all paper's
// transmission term (schedules/alltoall/reconfiguration_bound.h) for n GPUs, k ports
// and d configured topologies - one d, or every d in 1..n-1 - and, with
// `compare`, rdc's hop sum for the same (n, k, d) and its ratio to the bound
// (Figure 13). Keys (JSON and CSV columns, a contract): `gpus`, `ports`,
// `reconfigs`, `transmission_T`, and with compare `rdc_T`, `ratio`; for every
// d, JSON wraps rows in `bounds` and adds `worst_ratio`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace photonsim {

struct BoundReport {
  struct Row {
    int reconfigs = 0;
    int64_t transmission_T = 0;
    std::optional<int64_t> rdc_T;  // when compared and rdc builds this d
    std::optional<double> ratio() const;
  };
  int gpus = 0;
  int ports = 0;
  bool single = false;  // one d asked for
  bool compared = false;
  std::vector<Row> rows;

  // Throws Error for n < 2, k < 1 or d outside 1..n-1.
  static BoundReport build(int gpus, int ports, std::optional<int> reconfigs, bool compare, uint64_t seed);
  std::optional<double> worst_ratio() const;
  std::string table() const;
  std::string json() const;
  std::string csv() const;
};

}  // namespace photonsim
