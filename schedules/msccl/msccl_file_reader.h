#pragma once
// Contract: an algorithm file as MscclAlgorithm and the fuzzer take it: an
// MSCCL++ execution plan when its first character (after any byte-order
// mark and white space) is '{' (mscclpp_plan_reader.h), an MSCCL XML
// algorithm otherwise (msccl_reader.h); errors are theirs.
#include <string>
#include <string_view>

#include "schedules/msccl/msccl_program.h"

namespace photonsim {

bool is_mscclpp_plan(std::string_view text);

MscclProgram read_msccl_file(std::string_view text, const std::string& source);

}  // namespace photonsim
