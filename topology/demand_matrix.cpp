#include "topology/demand_matrix.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "core/error.h"

namespace photonsim {

namespace {

std::string pair_name(Node s, Node t) { return "D(" + std::to_string(s) + "," + std::to_string(t) + ")"; }

void check_value(Node s, Node t, double value) {
  if (!std::isfinite(value) || value < 0) {
    std::ostringstream shown;
    shown << value;
    throw Error("demand " + pair_name(s, t) + " = " + shown.str() + " must be finite and >= 0");
  }
}

}  // namespace

DemandMatrix::DemandMatrix(int gpus) : gpus_(gpus) {
  if (gpus < 0) throw Error("demand matrix: gpus = " + std::to_string(gpus) + " must be >= 0");
  entries_.assign(static_cast<size_t>(gpus) * static_cast<size_t>(gpus), 0.0);
}

DemandMatrix DemandMatrix::alltoall(int gpus) {
  DemandMatrix d(gpus);
  for (Node s = 0; s < static_cast<Node>(gpus); ++s) {
    for (Node t = 0; t < static_cast<Node>(gpus); ++t) {
      if (s != t) d.set(s, t, 1.0);
    }
  }
  return d;
}

size_t DemandMatrix::index(Node s, Node t) const {
  if (s >= static_cast<Node>(gpus_) || t >= static_cast<Node>(gpus_)) {
    throw Error("demand " + pair_name(s, t) + " names a GPU outside 0.." + std::to_string(gpus_ - 1));
  }
  return static_cast<size_t>(s) * static_cast<size_t>(gpus_) + t;
}

void DemandMatrix::set(Node s, Node t, double value) {
  const size_t i = index(s, t);
  check_value(s, t, value);
  entries_[i] = value;
}

void DemandMatrix::add(Node s, Node t, double value) {
  const size_t i = index(s, t);
  check_value(s, t, value);
  check_value(s, t, entries_[i] + value);
  entries_[i] += value;
}

double DemandMatrix::at(Node s, Node t) const { return entries_[index(s, t)]; }

double DemandMatrix::max_off_diagonal() const {
  double best = 0.0;
  for (Node s = 0; s < static_cast<Node>(gpus_); ++s) {
    for (Node t = 0; t < static_cast<Node>(gpus_); ++t) {
      if (s != t) best = std::max(best, entries_[index(s, t)]);
    }
  }
  return best;
}

}  // namespace photonsim
