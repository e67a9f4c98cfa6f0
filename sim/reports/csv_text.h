#pragma once
// Contract: RFC 4180 CSV fields. csv_line writes one record (every field
// through csv_field, comma-separated, "\n"-terminated); csv_field quotes a value holding a comma,
// quote, CR or LF (doubling quotes); csv_split reads one record back, quoted
// newlines included; csv_records cuts text into records at newlines outside
// quotes and reports whether the last one was left unterminated (torn).
#include <string>
#include <vector>

namespace photonsim {

std::string csv_field(const std::string& value);
std::string csv_line(const std::vector<std::string>& fields);
std::vector<std::string> csv_split(const std::string& record);

struct CsvRecords {
  std::vector<std::string> records;  // without their line ends
  size_t complete_bytes = 0;         // bytes up to the end of the last terminated record
  bool torn = false;                 // text after the last line end
};
CsvRecords csv_records(const std::string& text);

}  // namespace photonsim
