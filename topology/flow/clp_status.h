#pragma once
// Contract: a readable name for a ClpSimplex::status() code, for error messages.
#include <string>

namespace photonsim {

inline std::string clp_status_name(int status) {
  switch (status) {
    case 1:
      return "primal infeasible";
    case 2:
      return "dual infeasible (unbounded)";
    case 3:
      return "stopped on iteration or time limit";
    case 4:
      return "stopped on numerical errors";
    case 5:
      return "stopped by event handler";
    default:
      return "status " + std::to_string(status);
  }
}

}  // namespace photonsim
