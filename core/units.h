#pragma once
// Contract: Bytes and Bandwidth are strong integer types. Serialisation delay
// is exact: ceil(bytes * 8 * 1e12 / bits_per_second) picoseconds, computed
// with 128-bit intermediates, so a packet never takes less than its true time.
//
// Unit parsing (case-sensitive suffixes):
//   sizes:     B, KB, MB, GB, TB (decimal, 10^3 steps), KiB, MiB, GiB, TiB (binary, 2^10 steps)
//   bandwidth: bps, Kbps, Mbps, Gbps, Tbps (bits/s, decimal); B/s, KB/s, MB/s, GB/s, TB/s
//              (bytes/s, decimal); KiB/s, MiB/s, GiB/s (bytes/s, binary)
//   time:      ps, ns, us, ms, s
// Fractions are allowed when the result is a whole number of the base unit
// ("1.5us" = 1500000 ps); otherwise parsing fails.
#include <cstdint>
#include <compare>
#include <string>
#include <string_view>

#include "core/time.h"

namespace photonsim {

// Throws Error (exit 1) naming workload.message: sizes past int64 bytes never wrap.
[[noreturn]] void throw_bytes_overflow(const char* operation, int64_t a, int64_t b);

class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(int64_t v) : v_(v) {}
  constexpr int64_t count() const { return v_; }
  constexpr auto operator<=>(const Bytes&) const = default;
  constexpr Bytes operator+(Bytes o) const {
    int64_t r = 0;
    if (__builtin_add_overflow(v_, o.v_, &r)) throw_bytes_overflow("+", v_, o.v_);
    return Bytes(r);
  }
  constexpr Bytes operator-(Bytes o) const {
    int64_t r = 0;
    if (__builtin_sub_overflow(v_, o.v_, &r)) throw_bytes_overflow("-", v_, o.v_);
    return Bytes(r);
  }
  constexpr Bytes& operator+=(Bytes o) { return *this = *this + o; }
  constexpr Bytes operator*(int64_t k) const {
    int64_t r = 0;
    if (__builtin_mul_overflow(v_, k, &r)) throw_bytes_overflow("*", v_, k);
    return Bytes(r);
  }

 private:
  int64_t v_ = 0;
};

class Bandwidth {
 public:
  constexpr Bandwidth() = default;
  static constexpr Bandwidth bits_per_second(int64_t v) { return Bandwidth(v); }
  constexpr int64_t bps() const { return bps_; }
  constexpr auto operator<=>(const Bandwidth&) const = default;
  // Exact serialisation delay of `b` bytes, rounded up to a whole picosecond.
  Time serialization(Bytes b) const;

 private:
  constexpr explicit Bandwidth(int64_t v) : bps_(v) {}
  int64_t bps_ = 0;
};

// Each parser throws UnitError with a message naming the accepted suffixes.
Time parse_time(std::string_view text);
Bytes parse_bytes(std::string_view text);
Bandwidth parse_bandwidth(std::string_view text);

std::string format_bytes(Bytes b);
std::string format_bandwidth(Bandwidth bw);

}  // namespace photonsim
