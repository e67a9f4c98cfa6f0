#include "sim/config/key_parsers.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <sstream>

namespace photonsim {

void fail_at(const ConfigValue& value, const std::string& message) { throw Error(value.where + ": " + message); }

const char* describe(const YAML::Node& node) {
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  if (node.IsScalar()) return "a single value";
  return "nothing";
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

std::string read_text(const ConfigValue& value) {
  if (value.value.IsNull()) fail_at(value, value.key + " has no value");
  if (!value.value.IsScalar())
    fail_at(value, value.key + " must be a single value (got " + describe(value.value) + ")");
  return value.value.Scalar();
}

std::string read_name(const ConfigValue& value) {
  std::string text = read_text(value);
  if (trim(text).empty()) fail_at(value, value.key + " must not be empty");
  return text;
}

std::vector<std::string> read_names(const ConfigValue& value) {
  if (value.value.IsScalar()) return {read_name(value)};
  if (!value.value.IsSequence())
    fail_at(value, value.key + " must be a node name or a list of them (got " + describe(value.value) + ")");
  std::vector<std::string> out;
  for (const auto& item : value.value) out.push_back(read_name(ConfigValue{item, value.key, value.where}));
  return out;
}

std::string real_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string real_range_text(double min, double max) { return real_text(min) + " .. " + real_text(max); }

double read_real(const ConfigValue& value, double min, double max) {
  const std::string text = read_text(value);
  const std::string message =
      value.key + " must be a number in " + real_text(min) + ".." + real_text(max) + " (got " + quoted(text) + ")";
  double result = 0;
  try {
    result = value.value.as<double>();
  } catch (const YAML::BadConversion&) {
    fail_at(value, message);
  }
  if (!(result >= min && result <= max)) fail_at(value, message);
  return result;
}

const char* const kTimeValues = "a time: a number and ps, ns, us, ms or s (1.5us)";
const char* const kSizeValues = "a size: a number and B, KB, MB, GB, TB, KiB, MiB, GiB or TiB";
const char* const kBandwidthValues =
    "a number and bps, Kbps, Mbps, Gbps, Tbps, Gb/s, ... or B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s";

namespace {

// The unit parsers see "-5ns" as "no number"; say what is actually wrong.
template <class Parser>
std::invoke_result_t<Parser&, std::string_view> unit(const ConfigValue& value, Parser parse, const char* sign_rule) {
  const std::string text = read_text(value);
  if (trim(text).starts_with('-')) fail_at(value, value.key + " " + sign_rule + " (got " + quoted(text) + ")");
  try {
    return parse(text);
  } catch (const UnitError& error) {
    fail_at(value, value.key + ": " + error.what());
  }
}

}  // namespace

Time read_time(const ConfigValue& value) { return unit(value, parse_time, "must not be negative"); }

Bytes read_size(const ConfigValue& value, const char* zero_word) {
  if (zero_word != nullptr && value.value.IsScalar() && value.value.Scalar() == zero_word) return Bytes(0);
  const Bytes bytes = unit(value, parse_bytes, "must be positive");
  if (bytes.count() <= 0) {
    const std::string alternative = zero_word != nullptr ? " or '" + std::string(zero_word) + "'" : std::string();
    fail_at(value, value.key + " must be positive" + alternative + " (got " + quoted(read_text(value)) + ")");
  }
  return bytes;
}

Bytes read_size_or_zero(const ConfigValue& value) { return unit(value, parse_bytes, "must not be negative"); }

Bandwidth read_bandwidth(const ConfigValue& value) { return unit(value, parse_bandwidth, "must be positive"); }

const char* const kDurationValues = "a duration: a number and ps, ns, us, ms, s, min, h or d (1300000h)";

namespace {

__extension__ typedef __int128 i128;

struct DurationUnit {
  std::string_view name;
  int64_t picoseconds;
};
constexpr DurationUnit kDurationUnits[] = {{"ps", 1},
                                           {"ns", 1000},
                                           {"us", 1000000},
                                           {"ms", 1000000000},
                                           {"s", 1000000000000},
                                           {"min", 60 * int64_t{1000000000000}},
                                           {"h", 3600 * int64_t{1000000000000}},
                                           {"d", 86400 * int64_t{1000000000000}}};

// The exact picoseconds of "<decimal><unit>" (core/units.h's rules, and
// min, h and d), or an Error naming the key.
i128 duration_picoseconds(const ConfigValue& value) {
  const std::string text = read_text(value);
  const std::string_view body = trim(text);
  const auto fail = [&](const std::string& why) {
    fail_at(value, value.key + ": cannot parse duration " + quoted(text) + ": " + why +
                       " (expected a number followed by one of: ps, ns, us, ms, s, min, h, d)");
  };
  if (body.starts_with('-')) fail_at(value, value.key + " must not be negative (got " + quoted(text) + ")");
  std::string digits;
  size_t decimals = 0;
  bool point = false;
  size_t pos = 0;
  for (; pos < body.size(); ++pos) {
    const char c = body[pos];
    if (c >= '0' && c <= '9') {
      digits += c;
      decimals += point ? 1 : 0;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (digits.empty()) fail("no number");
  // Trailing fractional zeros change nothing ("1.500h" = "1.5h").
  while (decimals > 0 && digits.back() == '0') digits.pop_back(), --decimals;
  // 20 digits times a day's picoseconds stays far inside 128 bits.
  const size_t first = std::min(digits.find_first_not_of('0'), digits.size());
  if (digits.size() - first > 20) fail("number too large");
  const std::string_view unit = body.substr(pos);
  const auto found = std::find_if(std::begin(kDurationUnits), std::end(kDurationUnits),
                                  [&](const DurationUnit& u) { return u.name == unit; });
  if (found == std::end(kDurationUnits))
    fail(unit.empty() ? std::string("missing unit") : "unknown unit " + quoted(std::string(unit)));
  i128 mantissa = 0;
  for (size_t i = first; i < digits.size(); ++i) mantissa = mantissa * 10 + (digits[i] - '0');
  i128 divisor = 1;
  for (size_t i = 0; i < decimals; ++i) divisor *= 10;
  const i128 scaled = mantissa * found->picoseconds;
  if (scaled % divisor != 0) fail("not a whole number of picoseconds");
  return scaled / divisor;
}

}  // namespace

Time read_long_time(const ConfigValue& value) {
  const i128 ps = duration_picoseconds(value);
  if (ps > static_cast<i128>(Time::max().picoseconds()))
    fail_at(value, value.key + " = " + quoted(read_text(value)) +
                       " passes the largest time photonsim represents, 9223372036854775807 ps (about 106.75 days)");
  return Time::ps(static_cast<int64_t>(ps));
}

Time read_positive_long_time(const ConfigValue& value) {
  const Time t = read_long_time(value);
  if (t <= Time::zero()) fail_at(value, value.key + " must be positive (got " + quoted(read_text(value)) + ")");
  return t;
}

double read_duration_seconds(const ConfigValue& value) {
  const i128 ps = duration_picoseconds(value);
  if (ps <= 0) fail_at(value, value.key + " must be positive (got " + quoted(read_text(value)) + ")");
  return static_cast<double>(ps) / 1e12;
}

std::optional<int> small_number(std::string_view digits) {
  digits = trim(digits);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  int value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

GridShape read_shape(const ConfigValue& value) {
  const std::string text = read_text(value);
  const auto x = text.find('x');
  const std::optional<int> rows =
      x == std::string::npos ? std::nullopt : small_number(std::string_view(text).substr(0, x));
  const std::optional<int> cols =
      x == std::string::npos ? std::nullopt : small_number(std::string_view(text).substr(x + 1));
  if (!rows || !cols || *rows < 1 || *cols < 1 || *rows > 4096 || *cols > 4096)
    fail_at(value, value.key + " must be ROWSxCOLS, each 1..4096 (got " + quoted(text) + ")");
  return GridShape{*rows, *cols};
}

const char* const kGpuListValues = "GPU ids and ranges: \"a-b\" (inclusive), \"a-b/s\" (stride s), e.g. [\"0-3\", 8]";

std::vector<int> read_gpu_list(const ConfigValue& value, int gpus,
                               const std::function<std::string(const YAML::Mark&)>& locate) {
  if (!value.value.IsScalar() && !value.value.IsSequence())
    fail_at(value, value.key + " must be a list of GPU ids and ranges such as [\"0-3\", 8] (got " +
                       describe(value.value) + ")");
  std::vector<YAML::Node> items;
  if (value.value.IsScalar()) {
    items.push_back(value.value);
  } else {
    for (const auto& item : value.value) items.push_back(item);
  }
  std::vector<int> out;
  for (const YAML::Node& item : items) {
    const ConfigValue one{item, value.key, item.Mark().is_null() ? value.where : locate(item.Mark())};
    const std::string text = read_text(one);
    const auto bad = [&]() {
      fail_at(one, one.key + ": " + quoted(text) + " is neither a GPU id nor a range a-b or a-b/s (e.g. 0-7/2)");
    };
    const std::string_view body = trim(text);
    const auto dash = body.find('-');
    if (dash == std::string_view::npos) {
      const auto id = small_number(body);
      if (!id) bad();
      out.push_back(*id);
      continue;
    }
    const std::string_view rest = body.substr(dash + 1);
    const auto slash = rest.find('/');
    const auto first = small_number(body.substr(0, dash));
    const auto last = small_number(rest.substr(0, slash));
    const auto stride = slash == std::string_view::npos ? std::optional<int>(1) : small_number(rest.substr(slash + 1));
    if (!first || !last || !stride || *stride == 0) bad();
    if (*first > *last) fail_at(one, one.key + ": the range " + quoted(text) + " runs backwards");
    // Checked here too (TaskGraph checks ids) so a wild range allocates nothing.
    if (*last >= gpus)
      fail_at(one, one.key + ": GPU " + std::to_string(*last) + " is outside 0.." + std::to_string(gpus - 1) +
                       " (fabric.gpus is " + std::to_string(gpus) + ")");
    for (int64_t g = *first; g <= *last; g += *stride) out.push_back(static_cast<int>(g));
  }
  return out;
}

std::string shape_text(const GridShape& shape) { return std::to_string(shape.rows) + "x" + std::to_string(shape.cols); }

}  // namespace photonsim
