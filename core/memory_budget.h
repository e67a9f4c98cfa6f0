#pragma once
// Contract: how much memory one photonsim process may use. The limit is
// --max-memory when given, else three quarters of physical memory. check()
// refuses an up-front estimate past the limit with an Error naming the
// estimate and the key that drives it; enforce() caps the address space
// (RLIMIT_AS) so that anything the estimates miss ends in std::bad_alloc,
// which the CLI reports as exit 1, instead of the kernel's OOM killer.
// Sanitizer builds skip enforce(): their shadow memory needs the address space.
#include <cstdint>
#include <optional>
#include <string>

namespace photonsim {

class MemoryBudget {
 public:
  // `option_text` is --max-memory's value ("8GiB", "512MB"); throws Error on a bad one.
  static MemoryBudget from_option(const std::optional<std::string>& option_text);

  uint64_t limit_bytes() const { return limit_; }
  // "8 GiB (--max-memory)" or "18 GiB (the default: 3/4 of 24 GiB physical memory; --max-memory SIZE changes it)".
  const std::string& describe() const { return description_; }

  // Throws Error when `estimate_bytes` passes the limit; `what` says what
  // needs it and which key drives it, e.g. "fabric.gpus: 10000 GPUs ...".
  void check(uint64_t estimate_bytes, const std::string& what) const;
  void enforce() const;

 private:
  MemoryBudget(uint64_t limit, std::string description) : limit_(limit), description_(std::move(description)) {}
  uint64_t limit_;
  std::string description_;
};

// "37.3 GiB", "512 MiB": a size for messages.
std::string format_memory(uint64_t bytes);

}  // namespace photonsim
