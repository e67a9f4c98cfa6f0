#include "schedules/msccl/msccl_file_reader.h"

#include "schedules/msccl/msccl_reader.h"
#include "schedules/msccl/mscclpp_plan_reader.h"

namespace photonsim {

bool is_mscclpp_plan(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

MscclProgram read_msccl_file(std::string_view text, const std::string& source) {
  return is_mscclpp_plan(text) ? read_mscclpp_plan(text, source) : read_msccl_xml(text, source);
}

}  // namespace photonsim
