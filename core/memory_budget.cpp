#include "core/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

#include "core/error.h"
#include "core/units.h"

namespace photonsim {

namespace {

uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return uint64_t{8} << 30;  // unknown: assume a small machine
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
}

constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

}  // namespace

std::string format_memory(uint64_t bytes) {
  char text[64];
  const double gib = static_cast<double>(bytes) / static_cast<double>(uint64_t{1} << 30);
  if (gib >= 1) {
    std::snprintf(text, sizeof text, "%.1f GiB", gib);
  } else {
    std::snprintf(text, sizeof text, "%.0f MiB", static_cast<double>(bytes) / (1 << 20));
  }
  return text;
}

MemoryBudget MemoryBudget::from_option(const std::optional<std::string>& option_text) {
  if (option_text) {
    int64_t bytes = 0;
    try {
      bytes = parse_bytes(*option_text).count();
    } catch (const Error& e) {
      throw Error(std::string("--max-memory: ") + e.what());
    }
    if (bytes < (int64_t{64} << 20)) throw Error("--max-memory: must be at least 64MiB, got " + quoted(*option_text));
    return MemoryBudget(static_cast<uint64_t>(bytes), format_memory(static_cast<uint64_t>(bytes)) + " (--max-memory)");
  }
  const uint64_t physical = physical_memory();
  const uint64_t limit = physical / 4 * 3;
  return MemoryBudget(limit, format_memory(limit) + " (the default: 3/4 of " + format_memory(physical) +
                                 " physical memory; --max-memory SIZE changes it)");
}

void MemoryBudget::check(uint64_t estimate_bytes, const std::string& what) const {
  if (estimate_bytes <= limit_) return;
  throw Error(what + " needs an estimated " + format_memory(estimate_bytes) + ", more than the memory limit " +
              description_);
}

void MemoryBudget::enforce() const {
  if (kSanitized) return;
  struct rlimit current {};
  if (::getrlimit(RLIMIT_AS, &current) != 0) return;
  // Address space, not resident memory: leave room for code, stacks and the allocator's slack.
  const rlim_t wanted = static_cast<rlim_t>(limit_ + (uint64_t{256} << 20));
  // A tighter limit already in force (ulimit -v) stays.
  if (current.rlim_cur != RLIM_INFINITY && current.rlim_cur <= wanted) return;
  struct rlimit capped = current;
  capped.rlim_cur = wanted;
  ::setrlimit(RLIMIT_AS, &capped);
}

}  // namespace photonsim
