#include "sim/reports/bound_report.h"

#include <algorithm>
#include <vector>
#include <iomanip>
#include <sstream>

#include "core/error.h"
#include "sim/reports/csv_text.h"
#include "sim/reports/json_writer.h"

namespace photonsim {

namespace {

std::string fixed(double v) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(4) << v;
  return out.str();
}

}  // namespace

std::optional<double> BoundReport::ratio(const Row& row) {
  if (!row.rdc_T || row.transmission_T == 0) return std::nullopt;
  return static_cast<double>(*row.rdc_T) / static_cast<double>(row.transmission_T);
}

BoundReport BoundReport::of(int gpus, int ports, bool single, bool compared, std::vector<Row> rows) {
  BoundReport report;
  report.gpus = gpus;
  report.ports = ports;
  report.single = single;
  report.compared = compared;
  report.rows = std::move(rows);
  return report;
}

std::optional<double> BoundReport::worst_ratio() const {
  std::optional<double> worst;
  for (const Row& row : rows) {
    if (auto r = ratio(row)) worst = std::max(worst.value_or(0.0), *r);
  }
  return worst;
}

std::string BoundReport::table() const {
  std::ostringstream out;
  out << "lower bound on the sum of round hop counts (units of T), n = " << gpus << ", k = " << ports
      << (ports == 1 ? " (Theorem 1)\n" : " (Theorem 1 with the Moore bound, see README)\n");
  // Columns as wide as their widest cell, two spaces apart, right-aligned:
  // at large n the hop sums outgrow any fixed width.
  std::vector<std::vector<std::string>> cells{{"reconfigs", "transmission_T"}};
  if (compared) cells.front().insert(cells.front().end(), {"rdc_T", "ratio"});
  for (const Row& row : rows) {
    std::vector<std::string> line{std::to_string(row.reconfigs), std::to_string(row.transmission_T)};
    if (compared) {
      line.push_back(row.rdc_T ? std::to_string(*row.rdc_T) : "-");
      line.push_back(ratio(row) ? fixed(*ratio(row)) : "-");
    }
    cells.push_back(std::move(line));
  }
  std::vector<size_t> width(cells.front().size(), 0);
  for (const auto& line : cells) {
    for (size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  }
  for (const auto& line : cells) {
    for (size_t c = 0; c < line.size(); ++c) {
      out << (c ? "  " : "") << std::setw(static_cast<int>(width[c])) << line[c];
    }
    out << "\n";
  }
  if (compared && !single && worst_ratio()) out << "worst ratio over d: " << fixed(*worst_ratio()) << "\n";
  return out.str();
}

std::string BoundReport::json() const {
  const auto optional_number = [](JsonWriter& out, const std::optional<std::string>& text) -> JsonWriter& {
    return text ? out.number(*text) : out.null();
  };
  const auto row_fields = [&](JsonWriter& out, const Row& row) {
    out.field("gpus", gpus)
        .field("ports", ports)
        .field("reconfigs", row.reconfigs)
        .field("transmission_T", row.transmission_T);
    if (!compared) return;
    optional_number(out.key("rdc_T"), row.rdc_T ? std::optional(std::to_string(*row.rdc_T)) : std::nullopt);
    optional_number(out.key("ratio"), ratio(row) ? std::optional(fixed(*ratio(row))) : std::nullopt);
  };
  JsonWriter out;
  out.begin_object(JsonWriter::Layout::inline_);
  if (single) {
    row_fields(out, rows.front());
    return out.end_object().text();
  }
  out.field("gpus", gpus).field("ports", ports).key("bounds").begin_array(JsonWriter::Layout::inline_);
  for (const Row& row : rows) {
    out.begin_object(JsonWriter::Layout::inline_);
    row_fields(out, row);
    out.end_object();
  }
  out.end_array();
  if (compared)
    optional_number(out.key("worst_ratio"), worst_ratio() ? std::optional(fixed(*worst_ratio())) : std::nullopt);
  return out.end_object().text();
}

std::string BoundReport::csv() const {
  std::vector<std::string> header = {"gpus", "ports", "reconfigs", "transmission_T"};
  if (compared) header.insert(header.end(), {"rdc_T", "ratio"});
  std::string out = csv_line(header);
  for (const Row& row : rows) {
    std::vector<std::string> fields = {std::to_string(gpus), std::to_string(ports), std::to_string(row.reconfigs),
                                       std::to_string(row.transmission_T)};
    if (compared) {
      fields.push_back(row.rdc_T ? std::to_string(*row.rdc_T) : "");
      fields.push_back(ratio(row) ? fixed(*ratio(row)) : "");
    }
    out += csv_line(fields);
  }
  return out;
}

}  // namespace photonsim
