#pragma once
// Contract: a seeded, portable pseudo-random generator (splitmix64 seeding a
// xoshiro256**). The same seed gives the same sequence on every platform and
// compiler, unlike std:: distributions, so results are reproducible byte for byte.
#include <cstdint>

namespace photonsim {

class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next_u64();
  // Uniform in [0, bound) without modulo bias; bound must be > 0.
  uint64_t uniform(uint64_t bound);
  // Uniform in [0, 1).
  double uniform_real();

 private:
  uint64_t s_[4];
};

}  // namespace photonsim
