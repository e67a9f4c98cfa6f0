#pragma once
// Contract: Time is a strong type over int64 picoseconds. Arithmetic is exact;
// mixing Time with raw integers requires an explicit conversion.
#include <cstdint>
#include <compare>
#include <iosfwd>
#include <string>

namespace photonsim {

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time ps(int64_t v) { return Time(v); }
  static constexpr Time ns(int64_t v) { return Time(v * 1000); }
  static constexpr Time us(int64_t v) { return Time(v * 1000000); }
  static constexpr Time ms(int64_t v) { return Time(v * 1000000000); }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time max() { return Time(INT64_MAX); }

  constexpr int64_t picoseconds() const { return ps_; }
  constexpr double seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr auto operator<=>(const Time&) const = default;
  constexpr Time operator+(Time o) const { return Time(ps_ + o.ps_); }
  constexpr Time operator-(Time o) const { return Time(ps_ - o.ps_); }
  constexpr Time& operator+=(Time o) { ps_ += o.ps_; return *this; }
  constexpr Time& operator-=(Time o) { ps_ -= o.ps_; return *this; }
  constexpr Time operator*(int64_t k) const { return Time(ps_ * k); }

 private:
  constexpr explicit Time(int64_t v) : ps_(v) {}
  int64_t ps_ = 0;
};

// Largest readable unit with up to three decimals, e.g. "1.5us", "28ms", "0ps".
std::string format_time(Time t);
// Picoseconds and the readable form, e.g. "1500000ps (1.5us)": test failures stay legible.
std::ostream& operator<<(std::ostream& os, Time t);

}  // namespace photonsim
