#include "core/units.h"

#include <gtest/gtest.h>

#include <ostream>
#include <cstdint>
#include <string>

#include "core/error.h"

namespace photonsim {

namespace {

// ---- parse_time -------------------------------------------------------------

TEST(ParseTime, WholeValuesInEveryUnit) {
  EXPECT_EQ(parse_time("7ps").picoseconds(), int64_t{7});
  EXPECT_EQ(parse_time("500ns").picoseconds(), int64_t{500000});
  EXPECT_EQ(parse_time("10us").picoseconds(), int64_t{10000000});
  EXPECT_EQ(parse_time("3ms").picoseconds(), int64_t{3000000000});
  EXPECT_EQ(parse_time("2s").picoseconds(), int64_t{2000000000000});
  EXPECT_EQ(parse_time("0ps").picoseconds(), int64_t{0});
}

TEST(ParseTime, FractionsThatAreWholePicoseconds) {
  EXPECT_EQ(parse_time("1.5us").picoseconds(), int64_t{1500000});
  EXPECT_EQ(parse_time("0.001ns").picoseconds(), int64_t{1});
  EXPECT_EQ(parse_time("2.250ms").picoseconds(), int64_t{2250000000});
}

TEST(ParseTime, SurroundingWhitespaceIsIgnored) { EXPECT_EQ(parse_time("  500ns  ").picoseconds(), int64_t{500000}); }

TEST(ParseTime, MissingUnitIsRejected) {
  try {
    parse_time("500");
    FAIL() << "expected UnitError";
  } catch (const UnitError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("missing unit"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'500'"), std::string::npos) << msg;
    // Names the accepted suffixes.
    EXPECT_NE(msg.find("ps, ns, us, ms, s"), std::string::npos) << msg;
  }
}

// A number without a unit, as Python prints a float (issue 51, item 5):
// before, "1e-05" failed with "unknown unit 'e-05'" and no way out.
TEST(ParseTime, ANumberWithoutAUnitShowsTheSpellingToUse) {
  const auto message = [](auto parse, const char* text) {
    try {
      parse(text);
    } catch (const UnitError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string time = message(parse_time, "1e-05");
  EXPECT_NE(time.find("missing unit"), std::string::npos) << time;
  EXPECT_NE(time.find("write 10us (1e-05 s)"), std::string::npos) << time;
  EXPECT_EQ(time.find("unknown unit"), std::string::npos) << time;
  EXPECT_NE(message(parse_time, "500").find("write 500s (500 s)"), std::string::npos);
  EXPECT_NE(message(parse_time, "1.5e-7").find("write 150ns"), std::string::npos);
  EXPECT_NE(message(parse_bytes, "1048576").find("write 1MiB (1048576 B)"), std::string::npos);
  EXPECT_NE(message(parse_bandwidth, "8e11").find("write 100GB/s"), std::string::npos);
  // With a unit, or no number at all, the message is as before.
  EXPECT_NE(message(parse_time, "5min").find("unknown unit 'min'"), std::string::npos);
  EXPECT_NE(message(parse_time, "fast").find("no number"), std::string::npos);
}

TEST(ParseTime, UnknownUnitIsRejectedAndNamed) {
  try {
    parse_time("5min");
    FAIL() << "expected UnitError";
  } catch (const UnitError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown unit 'min'"), std::string::npos) << e.what();
  }
  // Suffixes are case-sensitive.
  EXPECT_THROW(parse_time("5NS"), UnitError);
  EXPECT_THROW(parse_time("5Us"), UnitError);
}

TEST(ParseTime, GarbageAndMalformedNumbersAreRejected) {
  EXPECT_THROW(parse_time("abc"), UnitError);
  EXPECT_THROW(parse_time(""), UnitError);
  EXPECT_THROW(parse_time("ns"), UnitError);
  EXPECT_THROW(parse_time("-5ns"), UnitError);
  EXPECT_THROW(parse_time("1.2.3ns"), UnitError);
  EXPECT_THROW(parse_time("10 us"), UnitError);   // space between number and unit
  EXPECT_THROW(parse_time("10us x"), UnitError);  // trailing characters
}

TEST(ParseTime, NonWholeFractionsAreRejected) {
  EXPECT_THROW(parse_time("0.1ps"), UnitError);
  EXPECT_THROW(parse_time("1.0001ns"), UnitError);
  try {
    parse_time("0.1ps");
  } catch (const UnitError& e) {
    EXPECT_NE(std::string(e.what()).find("not a whole number"), std::string::npos) << e.what();
  }
}

TEST(ParseTime, ValueAboveInt64IsRejected) {
  // INT64_MAX ps is about 9223372 s.
  EXPECT_EQ(parse_time("9223372036854775807ps").picoseconds(), INT64_MAX);
  EXPECT_THROW(parse_time("9223372036854775808ps"), UnitError);
  EXPECT_THROW(parse_time("9223373s"), UnitError);
  EXPECT_THROW(parse_time("99999999999999999999999999999999999999999999ps"), UnitError);
}

TEST(ParseTime, HugeMantissaTimesUnitFactorDoesNotWrap) {
  // 340282366920938463463374608 * 1e12 = 2^128 + 568231788544.
  EXPECT_THROW(parse_time("340282366920938463463374608s"), UnitError);
  EXPECT_THROW(parse_bytes("340282366920938463463374608TB"), UnitError);
}

TEST(ParseTime, ManyFractionalZerosDoNotCrash) {
  const std::string text = "0." + std::string(128, '0') + "ps";
  int64_t ps = -1;
  try {
    ps = parse_time(text).picoseconds();
  } catch (const UnitError&) {
    ps = 0;  // rejecting it is acceptable too
  }
  EXPECT_EQ(ps, int64_t{0});
}

// ---- parse_bytes ------------------------------------------------------------

TEST(ParseBytes, DecimalAndBinaryUnits) {
  EXPECT_EQ(parse_bytes("64B").count(), int64_t{64});
  EXPECT_EQ(parse_bytes("2KB").count(), int64_t{2000});
  EXPECT_EQ(parse_bytes("4MB").count(), int64_t{4000000});
  EXPECT_EQ(parse_bytes("32MB").count(), int64_t{32000000});
  EXPECT_EQ(parse_bytes("1GB").count(), int64_t{1000000000});
  EXPECT_EQ(parse_bytes("1TB").count(), int64_t{1000000000000});
  EXPECT_EQ(parse_bytes("4KiB").count(), int64_t{4096});
  EXPECT_EQ(parse_bytes("4MiB").count(), int64_t{4194304});
  EXPECT_EQ(parse_bytes("1GiB").count(), int64_t{1073741824});
  EXPECT_EQ(parse_bytes("1TiB").count(), int64_t{1099511627776});
}

TEST(ParseBytes, FractionsMustBeWholeBytes) {
  EXPECT_EQ(parse_bytes("1.5KB").count(), int64_t{1500});
  EXPECT_EQ(parse_bytes("0.5KiB").count(), int64_t{512});
  EXPECT_THROW(parse_bytes("0.5B"), UnitError);
  EXPECT_THROW(parse_bytes("1.0001KB"), UnitError);
}

TEST(ParseBytes, Errors) {
  EXPECT_THROW(parse_bytes("4096"), UnitError);
  EXPECT_THROW(parse_bytes("4mb"), UnitError);
  EXPECT_THROW(parse_bytes("4Mb"), UnitError);
  EXPECT_THROW(parse_bytes("abc"), UnitError);
  try {
    parse_bytes("4XB");
    FAIL() << "expected UnitError";
  } catch (const UnitError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("unknown unit 'XB'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("KiB"), std::string::npos) << msg;
  }
}

// ---- parse_bandwidth --------------------------------------------------------

TEST(ParseBandwidth, BitsAndBytesPerSecond) {
  EXPECT_EQ(parse_bandwidth("800Gbps").bps(), int64_t{800000000000});
  EXPECT_EQ(parse_bandwidth("1.6Tbps").bps(), int64_t{1600000000000});
  EXPECT_EQ(parse_bandwidth("100Mbps").bps(), int64_t{100000000});
  EXPECT_EQ(parse_bandwidth("9bps").bps(), int64_t{9});
  EXPECT_EQ(parse_bandwidth("450GB/s").bps(), int64_t{3600000000000});
  EXPECT_EQ(parse_bandwidth("1B/s").bps(), int64_t{8});
  EXPECT_EQ(parse_bandwidth("1KiB/s").bps(), int64_t{8192});
  EXPECT_EQ(parse_bandwidth("1GiB/s").bps(), int64_t{8589934592});
}

// The papers' spellings: Gb/s (bits) and GB/s (bytes) differ by the case of b.
TEST(ParseBandwidth, BitsPerSecondWithASlash) {
  EXPECT_EQ(parse_bandwidth("800Gb/s").bps(), parse_bandwidth("800Gbps").bps());
  EXPECT_EQ(parse_bandwidth("1.6Tb/s").bps(), int64_t{1600000000000});
  EXPECT_EQ(parse_bandwidth("100Mb/s").bps(), int64_t{100000000});
  EXPECT_EQ(parse_bandwidth("10Kb/s").bps(), int64_t{10000});
  EXPECT_EQ(parse_bandwidth("9b/s").bps(), int64_t{9});
  EXPECT_EQ(parse_bandwidth("100Gb/s").bps() * 8, parse_bandwidth("100GB/s").bps());
  // Formatting keeps its one spelling.
  EXPECT_EQ(format_bandwidth(parse_bandwidth("800Gb/s")), "800Gbps");
}

TEST(ParseBandwidth, ZeroAndMalformedAreRejected) {
  EXPECT_THROW(parse_bandwidth("0Gbps"), UnitError);
  EXPECT_THROW(parse_bandwidth("800"), UnitError);
  EXPECT_THROW(parse_bandwidth("800GBps"), UnitError);
  EXPECT_THROW(parse_bandwidth("0.5bps"), UnitError);
  EXPECT_THROW(parse_bandwidth("fast"), UnitError);
}

// ---- Bandwidth::serialization -----------------------------------------------

TEST(BandwidthSerialization, ExactWhenDivisible) {
  const Bandwidth b800 = Bandwidth::bits_per_second(800000000000);
  EXPECT_EQ(b800.serialization(Bytes(4000000)), Time::us(40));
  EXPECT_EQ(b800.serialization(Bytes(100)), Time::ps(1000));
  EXPECT_EQ(b800.serialization(Bytes(0)), Time::zero());
}

TEST(BandwidthSerialization, RoundsUpToWholePicosecond) {
  const Bandwidth b3 = Bandwidth::bits_per_second(3000000000);
  // 8e12 / 3e9 = 2666.67 ps
  EXPECT_EQ(b3.serialization(Bytes(1)).picoseconds(), int64_t{2667});
  // 3 bytes = 24 bits is exactly 8000 ps.
  EXPECT_EQ(b3.serialization(Bytes(3)).picoseconds(), int64_t{8000});
  // 1 B at 800 Gbps = 10 ps exactly; at 7 bps = ceil(8e12/7).
  EXPECT_EQ(Bandwidth::bits_per_second(7).serialization(Bytes(1)).picoseconds(), int64_t{1142857142858});
}

TEST(BandwidthSerialization, LargeValuesUse128BitIntermediates) {
  // 1 GB at 1 Gbps: numerator 8e9 * 1e12 = 8e21 overflows int64 but the result (8 s) fits.
  EXPECT_EQ(Bandwidth::bits_per_second(1000000000).serialization(Bytes(1000000000)), Time::ms(8000));
  // 1 TB at 800 Gbps = 10 s.
  EXPECT_EQ(Bandwidth::bits_per_second(800000000000).serialization(Bytes(1000000000000)), Time::ms(10000));
}

TEST(BandwidthSerialization, ResultBeyondInt64DoesNotSilentlyWrap) {
  // A delay beyond the int64 picosecond range is an error, never a wrapped value.
  EXPECT_THROW(Bandwidth::bits_per_second(1).serialization(Bytes(1000000000000)), Error);
}

// ---- formatting ---------------------------------------------------------------

TEST(FormatUnits, Bytes) {
  EXPECT_EQ(format_bytes(Bytes(0)), "0B");
  EXPECT_EQ(format_bytes(Bytes(512)), "512B");
  EXPECT_EQ(format_bytes(Bytes(4096)), "4KiB");
  EXPECT_EQ(format_bytes(Bytes(4194304)), "4MiB");
  EXPECT_EQ(format_bytes(Bytes(1536)), "1.5KiB");
  // Exact decimal sizes keep their decimal unit.
  EXPECT_EQ(format_bytes(Bytes(4000000)), "4MB");
  EXPECT_EQ(format_bytes(Bytes(1000)), "1KB");
  EXPECT_EQ(format_bytes(Bytes(1000000000000)), "1TB");
  EXPECT_EQ(format_bytes(Bytes(1099511627776)), "1TiB");
}

TEST(FormatUnits, Bandwidth) {
  EXPECT_EQ(format_bandwidth(Bandwidth::bits_per_second(800000000000)), "800Gbps");
  EXPECT_EQ(format_bandwidth(Bandwidth::bits_per_second(1600000000000)), "1.6Tbps");
  EXPECT_EQ(format_bandwidth(Bandwidth::bits_per_second(999)), "999bps");
}

TEST(FormatUnits, RoundTripsThroughParse) {
  for (const char* text : {"800Gbps", "1.6Tbps", "25Mbps"}) {
    EXPECT_EQ(format_bandwidth(parse_bandwidth(text)), text);
  }
  for (const char* text : {"4MiB", "4MB", "32MB", "1.5KiB", "64B", "3GiB"}) {
    EXPECT_EQ(format_bytes(parse_bytes(text)), text);
  }
}

}  // namespace
}  // namespace photonsim
