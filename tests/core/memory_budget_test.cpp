#include "core/memory_budget.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace photonsim {
namespace {

TEST(MemoryBudget, MaxMemoryOptionSetsTheLimit) {
  const MemoryBudget b = MemoryBudget::from_option(std::string("8GiB"));
  EXPECT_EQ(b.limit_bytes(), uint64_t{8} << 30);
  EXPECT_EQ(b.describe(), "8.0 GiB (--max-memory)");
  EXPECT_NO_THROW(b.check(uint64_t{8} << 30, "x"));
  try {
    b.check((uint64_t{8} << 30) + 1, "fabric.gpus (10000 GPUs)");
    FAIL() << "no throw";
  } catch (const Error& e) {
    EXPECT_STREQ(
        e.what(),
        "fabric.gpus (10000 GPUs) needs an estimated 8.0 GiB, more than the memory limit 8.0 GiB (--max-memory)");
  }
}

TEST(MemoryBudget, DefaultIsThreeQuartersOfPhysicalMemory) {
  const MemoryBudget b = MemoryBudget::from_option(std::nullopt);
  EXPECT_GT(b.limit_bytes(), uint64_t{0});
  EXPECT_NE(b.describe().find("3/4 of"), std::string::npos) << b.describe();
}

TEST(MemoryBudget, BadSizesAreRefused) {
  EXPECT_THROW(MemoryBudget::from_option(std::string("1KB")), Error);
  EXPECT_THROW(MemoryBudget::from_option(std::string("lots")), Error);
  EXPECT_THROW(MemoryBudget::from_option(std::string("-8GiB")), Error);
}

TEST(FormatMemory, GibAboveOneMibBelow) {
  EXPECT_EQ(format_memory(uint64_t{3} << 29), "1.5 GiB");
  EXPECT_EQ(format_memory(uint64_t{512} << 20), "512 MiB");
}

}  // namespace
}  // namespace photonsim
