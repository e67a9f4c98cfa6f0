#include "schedules/alltoall/baselines/fast_baseline.h"

#include <algorithm>

#include "core/error.h"
#include "schedules/alltoall/baselines/bottleneck_matcher.h"

namespace photonsim {

AlgorithmInfo FastBaseline::info() const {
  return {"fast",
          {Collective::alltoall},
          "joint",
          "FAST: Birkhoff-von Neumann decomposition into permutations on direct circuits, k per topology",
          {ParameterSpec::choice("rounds", {"per_topology", "per_permutation"},
                                 "per_topology: the k permutations of a topology in one round")},
          "n >= 2",
          true};
}

bool FastBaseline::supports(int gpus, int /*ports*/) const { return gpus >= 2; }

namespace {

enum class RoundMode { per_topology, per_permutation };

RoundMode round_mode(const ComponentParams& params) {
  const std::string mode = params.text("rounds");
  if (mode == "per_topology") return RoundMode::per_topology;
  if (mode == "per_permutation") return RoundMode::per_permutation;
  params.fail("rounds", "must be per_topology or per_permutation, got '" + mode + "'");
}

bool carries_demand(const FastBaseline::Term& term) {
  for (size_t row = 0; row < term.real.size(); ++row) {
    if (term.real[row].count() > 0) return true;
  }
  return false;
}

}  // namespace

std::vector<FastBaseline::Term> FastBaseline::decompose(const std::vector<Bytes>& demand, int gpus,
                                                        WorkProgress* progress) {
  const auto n = static_cast<size_t>(gpus);
  if (demand.size() != n * n)
    throw Error("fast: demand matrix is not " + std::to_string(gpus) + " x " + std::to_string(gpus));
  std::vector<int64_t> real(n * n, 0), slack(n * n, 0);
  std::vector<int64_t> row_sum(n, 0), col_sum(n, 0);
  for (size_t s = 0; s < n; ++s) {
    for (size_t t = 0; t < n; ++t) {
      if (s == t) continue;  // a GPU does not send to itself over the fabric
      real[s * n + t] = demand[s * n + t].count();
      row_sum[s] += real[s * n + t];
      col_sum[t] += real[s * n + t];
    }
  }
  const int64_t line =
      std::max(*std::max_element(row_sum.begin(), row_sum.end()), *std::max_element(col_sum.begin(), col_sum.end()));
  if (line == 0) return {};
  // Padding: the diagonal takes what row i and column i both lack; then every
  // row still short has a zero column deficit on its own index, so the
  // north-west corner rule puts the rest on dummy off-diagonal entries.
  std::vector<int64_t> row_short(n), col_short(n);
  for (size_t i = 0; i < n; ++i) {
    slack[i * n + i] = std::min(line - row_sum[i], line - col_sum[i]);
    row_short[i] = line - row_sum[i] - slack[i * n + i];
    col_short[i] = line - col_sum[i] - slack[i * n + i];
  }
  for (size_t i = 0, j = 0; i < n && j < n;) {
    if (row_short[i] == 0) {
      ++i;
    } else if (col_short[j] == 0) {
      ++j;
    } else {
      const int64_t x = std::min(row_short[i], col_short[j]);
      slack[i * n + j] += x;
      row_short[i] -= x;
      col_short[j] -= x;
    }
  }
  std::vector<int64_t> entries(n * n);
  for (size_t e = 0; e < n * n; ++e) entries[e] = real[e] + slack[e];
  // Progress counts terms. Each term takes one entry of every row and column,
  // so a row or column with m positive entries needs m more terms at least.
  std::vector<int64_t> positive_in_row(n, 0), positive_in_column(n, 0);
  for (size_t e = 0; e < n * n; ++e) {
    positive_in_row[e / n] += entries[e] > 0 ? 1 : 0;
    positive_in_column[e % n] += entries[e] > 0 ? 1 : 0;
  }
  const auto terms_left_at_least = [&] {
    return std::max(*std::max_element(positive_in_row.begin(), positive_in_row.end()),
                    *std::max_element(positive_in_column.begin(), positive_in_column.end()));
  };
  BottleneckMatcher matcher(gpus, std::move(entries));

  std::vector<Term> terms;
  std::vector<int> column_of(n, -1);
  for (int64_t left = line; left > 0;) {
    if (progress != nullptr) {
      const auto done = static_cast<double>(terms.size());
      progress->progressed({"FAST: permutations of the demand", done, done + static_cast<double>(terms_left_at_least()),
                            WorkTotal::at_least});
    }
    column_of = matcher.next(std::move(column_of));
    int64_t weight = left;
    for (size_t row = 0; row < n; ++row)
      weight = std::min(weight, matcher.entry(static_cast<int>(row), column_of[row]));
    Term term{Bytes(weight), std::vector<Node>(n), std::vector<Bytes>(n)};
    for (size_t row = 0; row < n; ++row) {
      const size_t e = row * n + static_cast<size_t>(column_of[row]);
      // Real bytes before padding, so demand leaves in the earliest terms that can carry it.
      const int64_t sent = std::min(weight, real[e]);
      real[e] -= sent;
      slack[e] -= weight - sent;
      term.column_of[row] = static_cast<Node>(column_of[row]);
      term.real[row] = Bytes(sent);
    }
    matcher.subtract(column_of, weight);
    for (size_t row = 0; row < n; ++row) {
      if (matcher.entry(static_cast<int>(row), column_of[row]) == 0) {
        --positive_in_row[row];
        --positive_in_column[static_cast<size_t>(column_of[row])];
      }
    }
    left -= weight;
    terms.push_back(std::move(term));
  }
  return terms;
}

std::vector<AlltoallStrategy> FastBaseline::strategies(const JointInput& input, std::optional<int> only) const {
  if (input.fabric.circuits != CircuitKind::directed) {
    throw Error("algorithm 'fast' builds directed permutations: set fabric.circuits: directed");
  }
  const RoundMode mode = round_mode(input.params);
  const int n = input.gpus();
  const auto k = static_cast<size_t>(input.fabric.ports);
  std::vector<Term> terms = FastBaseline::decompose(input.demand, n, input.progress);
  std::erase_if(terms, [](const Term& t) { return !carries_demand(t); });  // pure padding
  // Heaviest first, so the k permutations sharing a topology (and, per
  // topology, a round) have similar weights.
  std::stable_sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return a.weight > b.weight; });
  const int d = static_cast<int>((terms.size() + k - 1) / k);
  if (only && *only != d) return {};

  AlltoallStrategy strategy;
  strategy.construction = "BvN, " + std::to_string(terms.size()) + " permutation(s), " + std::to_string(k) +
                          " per topology" + (mode == RoundMode::per_permutation ? ", one round each" : "");
  for (size_t first = 0; first < terms.size(); first += k) {
    const size_t last = std::min(first + k, terms.size());
    const int topology = strategy.configurations();
    std::vector<Edge> edges;
    std::vector<StrategyFlow> pieces;  // the topology's flows, permutation by permutation
    std::vector<size_t> round_starts;
    for (size_t p = first; p < last; ++p) {
      round_starts.push_back(pieces.size());
      for (Node row = 0; row < static_cast<Node>(n); ++row) {
        const Bytes bytes = terms[p].real[row];
        if (bytes.count() == 0) continue;
        edges.push_back({row, terms[p].column_of[row]});
        pieces.push_back(single_path_flow({row, terms[p].column_of[row]}, bytes));
      }
    }
    const std::string terms_label = std::to_string(first + 1) + (last > first + 1 ? ".." + std::to_string(last) : "");
    strategy.topologies.emplace_back("bvn(" + terms_label + ")", n, std::move(edges));
    if (mode == RoundMode::per_permutation) {
      round_starts.push_back(pieces.size());
      for (size_t r = 0; r + 1 < round_starts.size(); ++r) {
        StrategyRound round{topology, {}};
        for (size_t f = round_starts[r]; f < round_starts[r + 1]; ++f) round.flows.push_back(pieces[f]);
        strategy.rounds.push_back(std::move(round));
      }
    } else {
      // Pieces of one pair are made adjacent: transfer i takes parallel
      // circuit i mod multiplicity (step_routes.h), so they use distinct circuits.
      std::stable_sort(pieces.begin(), pieces.end(), [](const StrategyFlow& a, const StrategyFlow& b) {
        return std::pair(a.src, a.dst) < std::pair(b.src, b.dst);
      });
      strategy.rounds.push_back(StrategyRound{topology, std::move(pieces)});
    }
  }
  return {strategy};
}

}  // namespace photonsim
