#pragma once
// Contract: Time is a strong type over int64 picoseconds. Arithmetic is exact
// or throws TimeOverflow (an Error: bad input, exit 1) when a result passes
// int64 picoseconds, about 106 days; it never wraps. Mixing Time with raw
// integers requires an explicit conversion.
#include <cstdint>
#include <compare>
#include <iosfwd>
#include <string>

namespace photonsim {

// Throws TimeOverflow naming the operation (core/time.cpp); out of line so the
// checks cost one predictable branch on the engine's hot path.
[[noreturn]] void throw_time_overflow(const char* operation, int64_t a, int64_t b);

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
  constexpr Time operator+(Time o) const {
    int64_t r = 0;
    if (__builtin_add_overflow(ps_, o.ps_, &r)) throw_time_overflow("+", ps_, o.ps_);
    return Time(r);
  }
  constexpr Time operator-(Time o) const {
    int64_t r = 0;
    if (__builtin_sub_overflow(ps_, o.ps_, &r)) throw_time_overflow("-", ps_, o.ps_);
    return Time(r);
  }
  constexpr Time& operator+=(Time o) { return *this = *this + o; }
  constexpr Time& operator-=(Time o) { return *this = *this - o; }
  constexpr Time operator*(int64_t k) const {
    int64_t r = 0;
    if (__builtin_mul_overflow(ps_, k, &r)) throw_time_overflow("*", ps_, k);
    return Time(r);
  }
  // A rounded picosecond count from a cost model's floating-point arithmetic;
  // throws TimeOverflow when it is not a finite value within range.
  static Time from_picoseconds(double ps);

 private:
  constexpr explicit Time(int64_t v) : ps_(v) {}
  int64_t ps_ = 0;
};

// Largest readable unit with up to three decimals, e.g. "1.5us", "28ms", "0ps".
std::string format_time(Time t);
// Picoseconds and the readable form, e.g. "1500000ps (1.5us)": test failures stay legible.
std::ostream& operator<<(std::ostream& os, Time t);

}  // namespace photonsim
