#include "core/units.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <ostream>
#include <utility>

#include "core/error.h"

namespace photonsim {
namespace {

__extension__ typedef __int128 i128;

struct Suffix {
  std::string_view name;
  i128 factor;  // value of one unit in the base unit (ps, bytes or bits/s)
};

constexpr i128 kKilo = 1000;
constexpr i128 kKibi = 1024;

constexpr std::array<Suffix, 5> kTimeSuffixes{
    {{"ps", 1}, {"ns", kKilo}, {"us", kKilo* kKilo}, {"ms", kKilo* kKilo* kKilo}, {"s", kKilo* kKilo* kKilo* kKilo}}};

constexpr std::array<Suffix, 9> kByteSuffixes{{{"B", 1},
                                               {"KB", kKilo},
                                               {"MB", kKilo* kKilo},
                                               {"GB", kKilo* kKilo* kKilo},
                                               {"TB", kKilo* kKilo* kKilo* kKilo},
                                               {"KiB", kKibi},
                                               {"MiB", kKibi* kKibi},
                                               {"GiB", kKibi* kKibi* kKibi},
                                               {"TiB", kKibi* kKibi* kKibi* kKibi}}};

// The papers write Gb/s and Gbps alike; both spellings are read, formatted as bps.
constexpr std::array<Suffix, 18> kBandwidthSuffixes{{{"bps", 1},
                                                     {"Kbps", kKilo},
                                                     {"Mbps", kKilo* kKilo},
                                                     {"Gbps", kKilo* kKilo* kKilo},
                                                     {"Tbps", kKilo* kKilo* kKilo* kKilo},
                                                     {"B/s", 8},
                                                     {"KB/s", 8 * kKilo},
                                                     {"MB/s", 8 * kKilo* kKilo},
                                                     {"GB/s", 8 * kKilo* kKilo* kKilo},
                                                     {"TB/s", 8 * kKilo* kKilo* kKilo* kKilo},
                                                     {"KiB/s", 8 * kKibi},
                                                     {"MiB/s", 8 * kKibi* kKibi},
                                                     {"GiB/s", 8 * kKibi* kKibi* kKibi},
                                                     {"b/s", 1},
                                                     {"Kb/s", kKilo},
                                                     {"Mb/s", kKilo* kKilo},
                                                     {"Gb/s", kKilo* kKilo* kKilo},
                                                     {"Tb/s", kKilo* kKilo* kKilo* kKilo}}};

template <size_t N>
std::string suffix_list(const std::array<Suffix, N>& suffixes) {
  std::string out;
  for (const auto& s : suffixes) {
    if (!out.empty()) out += ", ";
    out += s.name;
  }
  return out;
}

// A number without a unit ("1e-05", "10", as a Python float prints), read
// in `plain` (s for a time, B for a size, bps for a bandwidth) and spelled
// exactly in the largest unit that divides it ("write 10us (1e-05 s)"), for
// the message; empty when the text is not a plain positive number.
template <size_t N>
std::string spelled_with_unit(std::string_view text, const std::array<Suffix, N>& suffixes, std::string_view plain) {
  const std::string number(text);
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  while (end != nullptr && *end != '\0' && std::isspace(static_cast<unsigned char>(*end))) ++end;
  if (end == number.c_str() || end == nullptr || *end != '\0' || !std::isfinite(value) || value <= 0) return "";
  long double base = value;
  for (const Suffix& s : suffixes) {
    if (s.name == plain) base *= static_cast<long double>(s.factor);
  }
  if (base < 1 || base > 9.2e18L) return "";
  const i128 in_base = std::llround(base);
  const Suffix* best = &suffixes[0];
  for (const Suffix& s : suffixes) {
    if (in_base >= s.factor && in_base % s.factor == 0 && s.factor > best->factor) best = &s;
  }
  std::string trimmed = number;
  while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) trimmed.pop_back();
  return "write " + std::to_string(static_cast<int64_t>(in_base / best->factor)) + std::string(best->name) + " (" +
         trimmed.substr(trimmed.find_first_not_of(" \t")) + " " + std::string(plain) + ")";
}

// Parses "<decimal><suffix>" exactly; returns the value in the base unit.
// `plain`: the unit a number written without one is taken in, for the message.
template <size_t N>
int64_t parse_with(std::string_view text, const std::array<Suffix, N>& suffixes, const char* what,
                   std::string_view plain) {
  auto fail = [&](const std::string& why) -> int64_t {
    throw UnitError("cannot parse " + std::string(what) + " " + quoted(std::string(text)) + ": " + why +
                    " (expected a number followed by one of: " + suffix_list(suffixes) + ")");
  };
  // "1e-05" would otherwise read as 1 with an unknown unit 'e-05'.
  if (const std::string spelled = spelled_with_unit(text, suffixes, plain); !spelled.empty())
    return fail("missing unit: a number needs one; " + spelled);
  size_t pos = 0;
  while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  std::string integer_digits, fraction_digits;
  bool seen_point = false;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      (seen_point ? fraction_digits : integer_digits) += c;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  const bool seen_digit = !integer_digits.empty() || !fraction_digits.empty();
  // Trailing fractional zeros change nothing ("1.500us" = "1.5us").
  while (!fraction_digits.empty() && fraction_digits.back() == '0') fraction_digits.pop_back();
  // Bounds keep every intermediate inside 128 bits: mantissa <= 10^25, unit
  // factor <= 8 * 10^12, divisor <= 10^36.
  constexpr size_t kMaxDecimals = 36;
  const i128 kMaxMantissa = static_cast<i128>(10'000'000'000'000LL) * 1'000'000'000'000LL;
  i128 mantissa = 0;
  for (char c : integer_digits + fraction_digits) {
    mantissa = mantissa * 10 + (c - '0');
    if (mantissa > kMaxMantissa) return fail("number too large");
  }
  const size_t decimals = fraction_digits.size();
  if (decimals > kMaxDecimals) return fail("not a whole number of the base unit");
  if (!seen_digit) return fail("no number");
  size_t suffix_begin = pos;
  while (pos < text.size() && !std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  std::string_view suffix = text.substr(suffix_begin, pos - suffix_begin);
  while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  if (pos != text.size()) return fail("trailing characters");
  for (const auto& s : suffixes) {
    if (s.name != suffix) continue;
    i128 scaled = mantissa * s.factor;
    i128 divisor = 1;
    for (size_t i = 0; i < decimals; ++i) divisor *= 10;
    if (scaled % divisor != 0) return fail("not a whole number of the base unit");
    i128 value = scaled / divisor;
    if (value > static_cast<i128>(INT64_MAX)) return fail("value too large");
    return static_cast<int64_t>(value);
  }
  return fail(suffix.empty() ? "missing unit" : "unknown unit " + quoted(std::string(suffix)));
}

template <size_t N>
std::string format_with(int64_t value, const std::array<Suffix, N>& suffixes, std::initializer_list<size_t> order) {
  // Picks the largest unit in `order` that the value reaches, prints up to 3 decimals.
  const Suffix* best = &suffixes[*order.begin()];
  for (size_t idx : order) {
    if (static_cast<i128>(value) >= suffixes[idx].factor || value == 0) {
      if (suffixes[idx].factor >= best->factor && static_cast<i128>(value) >= suffixes[idx].factor)
        best = &suffixes[idx];
    }
  }
  double v = static_cast<double>(value) / static_cast<double>(best->factor);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s(buf);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s + std::string(best->name);
}

}  // namespace

void throw_bytes_overflow(const char* operation, int64_t a, int64_t b) {
  throw Error("size overflow (" + std::to_string(a) + " B " + operation + " " + std::to_string(b) +
              (*operation == '*' ? "" : " B") +
              "): beyond the largest size photonsim represents, 9223372036854775807 bytes; workload.message sets it");
}

Time Bandwidth::serialization(Bytes b) const {
  const i128 numerator = static_cast<i128>(b.count()) * 8 * 1000000000000LL;
  const i128 q = (numerator + bps_ - 1) / bps_;
  if (q > static_cast<i128>(INT64_MAX)) {
    throw Error("serialising " + std::to_string(b.count()) + " bytes at " + format_bandwidth(*this) +
                " exceeds the simulated time range (about 106 days)");
  }
  return Time::ps(static_cast<int64_t>(q));
}

Time parse_time(std::string_view text) { return Time::ps(parse_with(text, kTimeSuffixes, "time", "s")); }

Bytes parse_bytes(std::string_view text) { return Bytes(parse_with(text, kByteSuffixes, "size", "B")); }

Bandwidth parse_bandwidth(std::string_view text) {
  int64_t bps = parse_with(text, kBandwidthSuffixes, "bandwidth", "bps");
  if (bps <= 0) throw UnitError("bandwidth " + quoted(std::string(text)) + " must be positive");
  return Bandwidth::bits_per_second(bps);
}

std::string format_time(Time t) {
  if (t.picoseconds() < 0) {
    std::string magnitude = format_time(Time::zero() - t);
    magnitude.insert(magnitude.begin(), '-');
    return magnitude;
  }
  return format_with(t.picoseconds(), kTimeSuffixes, {0, 1, 2, 3, 4});
}

std::ostream& operator<<(std::ostream& os, Time t) { return os << t.picoseconds() << "ps (" << format_time(t) << ")"; }

std::string format_bytes(Bytes b) {
  // Exact units first (4MB stays "4MB", 4MiB stays "4MiB"), else binary with decimals.
  const Suffix* exact = nullptr;
  for (const Suffix& s : kByteSuffixes) {
    if (b.count() > 0 && static_cast<i128>(b.count()) % s.factor == 0 && (!exact || s.factor > exact->factor)) {
      exact = &s;
    }
  }
  if (exact && exact->factor > 1) {
    return std::to_string(static_cast<int64_t>(static_cast<i128>(b.count()) / exact->factor)) +
           std::string(exact->name);
  }
  return format_with(b.count(), kByteSuffixes, {0, 5, 6, 7, 8});
}

std::string format_bandwidth(Bandwidth bw) { return format_with(bw.bps(), kBandwidthSuffixes, {0, 1, 2, 3, 4}); }

}  // namespace photonsim
