#include "schedules/model/schedule_io.h"

#include <gtest/gtest.h>

#include <ostream>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "schedules/synthesizer_registry.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {

namespace {

namespace fs = std::filesystem;

FabricSpec schedule_io_fabric(int gpus, int ports = 1, CircuitKind circuits = CircuitKind::directed) {
  FabricSpec f = testing_support::test_fabric(gpus, ports, circuits);
  f.reconfig_delay = Time::us(2);
  f.step_overhead = Time::ns(7);
  return f;
}

Schedule schedule_io_synth(Collective c, const std::string& algorithm, const std::string& planner,
                           const std::string& topology, int gpus = 8, int root = 0) {
  const WorkloadSpec w = testing_support::test_workload(c, 4000003, root);
  SynthesisSpec s;
  s.algorithm = algorithm;
  s.planner = planner;
  s.topology.type = topology;
  return SynthesizerRegistry::with_builtins().synthesize(schedule_io_fabric(gpus), w, s);
}

// A hand-made schedule exercising explicit paths, reduce ops, multi-block
// transfers, parallel edges and negative-free but odd prediction values.
Schedule handmade() {
  ScheduleParts p;
  p.collective = Collective::allreduce;
  p.algorithm = "custom";
  p.planner = "by_hand";
  p.gpus = 4;
  p.message = Bytes(123456789);
  p.initial_topology = 1;
  p.topologies = {Topology("a", 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}),
                  Topology("b", 4, {{0, 2}, {0, 2}, {2, 0}, {1, 3}})};
  Transfer t1;
  t1.src = 0;
  t1.dst = 3;
  t1.bytes = Bytes(1000);
  t1.path = {0, 1, 2, 3};
  t1.blocks = {5, 6, 7};
  t1.op = TransferOp::reduce;
  Transfer t2;
  t2.src = 2;
  t2.dst = 0;
  t2.bytes = Bytes(0);
  Transfer t3;
  t3.src = 1;
  t3.dst = 3;
  t3.bytes = Bytes(int64_t{1} << 40);
  t3.blocks = {4000000000u};
  p.steps = {Step{0, {t1}}, Step{1, {t2, t3}}, Step{0, {}}};
  p.prediction.model = "hand";
  p.prediction.steps = {StepPrediction{Time::ps(1), Time::ps(2), Time::ps(3), Time::ps(4)},
                        StepPrediction{Time::zero(), Time::ms(5), Time::max(), Time::zero()},
                        StepPrediction{Time::ns(9), Time::zero(), Time::zero(), Time::us(1)}};
  return Schedule(std::move(p));
}

void expect_same(const Schedule& a, const Schedule& b) {
  EXPECT_EQ(a.collective(), b.collective());
  EXPECT_EQ(a.algorithm(), b.algorithm());
  EXPECT_EQ(a.planner(), b.planner());
  EXPECT_EQ(a.gpus(), b.gpus());
  EXPECT_EQ(a.message(), b.message());
  EXPECT_EQ(a.initial_topology(), b.initial_topology());
  ASSERT_EQ(a.topologies().size(), b.topologies().size());
  for (size_t i = 0; i < a.topologies().size(); ++i) {
    EXPECT_EQ(a.topologies()[i], b.topologies()[i]);
    EXPECT_EQ(a.topologies()[i].name(), b.topologies()[i].name());
  }
  ASSERT_EQ(a.steps().size(), b.steps().size());
  for (size_t s = 0; s < a.steps().size(); ++s) {
    EXPECT_EQ(a.steps()[s].topology, b.steps()[s].topology);
    ASSERT_EQ(a.steps()[s].transfers.size(), b.steps()[s].transfers.size());
    for (size_t i = 0; i < a.steps()[s].transfers.size(); ++i) {
      const Transfer& x = a.steps()[s].transfers[i];
      const Transfer& y = b.steps()[s].transfers[i];
      EXPECT_EQ(x.src, y.src);
      EXPECT_EQ(x.dst, y.dst);
      EXPECT_EQ(x.bytes, y.bytes);
      EXPECT_EQ(x.path, y.path);
      EXPECT_EQ(x.blocks, y.blocks);
      EXPECT_EQ(x.op, y.op);
    }
  }
  EXPECT_EQ(a.prediction().model, b.prediction().model);
  ASSERT_EQ(a.prediction().steps.size(), b.prediction().steps.size());
  for (size_t s = 0; s < a.prediction().steps.size(); ++s) {
    EXPECT_EQ(a.prediction().steps[s].reconfiguration, b.prediction().steps[s].reconfiguration);
    EXPECT_EQ(a.prediction().steps[s].startup, b.prediction().steps[s].startup);
    EXPECT_EQ(a.prediction().steps[s].propagation, b.prediction().steps[s].propagation);
    EXPECT_EQ(a.prediction().steps[s].transmission, b.prediction().steps[s].transmission);
  }
}

std::vector<Schedule> samples() {
  std::vector<Schedule> out;
  out.push_back(schedule_io_synth(Collective::alltoall, "direct", "", "ring"));
  out.push_back(schedule_io_synth(Collective::allreduce, "ring", "", "ring"));
  out.push_back(schedule_io_synth(Collective::broadcast, "binomial", "", "none", 13, 5));
  out.push_back(schedule_io_synth(Collective::alltoall, "direct", "every_step", "none", 5));
  out.push_back(handmade());
  return out;
}

// libprotobuf logs rejected input to stderr (see RejectingAFileWritesNothingToStderr);
// keeps the bulk corruption tests quiet.
class QuietStderr {
 public:
  QuietStderr() { ::testing::internal::CaptureStderr(); }
  ~QuietStderr() { (void)::testing::internal::GetCapturedStderr(); }
};

class ScheduleIoFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / (std::string("photonsim_io_") + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST(ScheduleIo, BinaryRoundTripPreservesEverything) {
  for (const Schedule& s : samples()) {
    SCOPED_TRACE(s.algorithm() + "/" + s.planner());
    expect_same(s, parse_schedule(serialize_schedule(s, false), false, "mem"));
  }
}

TEST(ScheduleIo, TextRoundTripPreservesEverything) {
  for (const Schedule& s : samples()) {
    SCOPED_TRACE(s.algorithm() + "/" + s.planner());
    const std::string text = serialize_schedule(s, true);
    EXPECT_NE(text.find("algorithm: \"" + s.algorithm() + "\""), std::string::npos);
    expect_same(s, parse_schedule(text, true, "mem.pbtxt"));
  }
}

TEST(ScheduleIo, SynthesizedPredictionSurvives) {
  const Schedule s = schedule_io_synth(Collective::alltoall, "direct", "", "ring");
  ASSERT_EQ(s.prediction().steps.size(), size_t{7});
  const Schedule back = parse_schedule(serialize_schedule(s, false), false, "mem");
  EXPECT_EQ(back.prediction().total(), s.prediction().total());
  EXPECT_EQ(back.reconfigurations(), s.reconfigurations());
}

TEST(ScheduleIo, SerializationIsDeterministic) {
  EXPECT_EQ(serialize_schedule(handmade(), false), serialize_schedule(handmade(), false));
  EXPECT_EQ(serialize_schedule(handmade(), true), serialize_schedule(handmade(), true));
}

TEST(ScheduleIo, EveryBinaryTruncationIsRejected) {
  for (const Schedule& s : {schedule_io_synth(Collective::allreduce, "ring", "", "ring", 4), handmade()}) {
    const std::string bytes = serialize_schedule(s, false);
    ASSERT_GT(bytes.size(), size_t{20});
    for (size_t len = 0; len < bytes.size(); ++len) {
      EXPECT_THROW(parse_schedule(bytes.substr(0, len), false, "cut.bin"), Error)
          << "prefix of " << len << " of " << bytes.size() << " bytes accepted";
    }
  }
}

TEST(ScheduleIo, TruncationErrorNamesSource) {
  const std::string bytes = serialize_schedule(handmade(), false);
  try {
    parse_schedule(bytes.substr(0, bytes.size() / 2), false, "half.bin");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'half.bin'"), std::string::npos) << e.what();
  }
  try {
    parse_schedule("", false, "empty.bin");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'empty.bin'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("end marker"), std::string::npos) << msg;
  }
}

TEST(ScheduleIo, GarbageBytesRejected) {
  const QuietStderr quiet;
  EXPECT_THROW(parse_schedule("this is not a protobuf", false, "g"), Error);
  EXPECT_THROW(parse_schedule(std::string(64, '\xff'), false, "g"), Error);
  EXPECT_THROW(parse_schedule(std::string(64, '\0'), false, "g"), Error);
  Rng rng(31337);
  for (int trial = 0; trial < 500; ++trial) {
    std::string junk(static_cast<size_t>(1 + rng.uniform(200)), '\0');
    for (char& c : junk) c = static_cast<char>(rng.uniform(256));
    EXPECT_THROW(parse_schedule(junk, false, "junk"), Error) << "trial " << trial;
  }
}

TEST(ScheduleIo, CorruptedBytesNeverCrash) {
  const QuietStderr quiet;
  // Flip single bytes of a valid file: either rejected with Error or, if the
  // flip lands in a value, a valid schedule; never anything else.
  const std::string good = serialize_schedule(schedule_io_synth(Collective::allreduce, "ring", "", "ring", 4), false);
  Rng rng(4242);
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ static_cast<char>(1 + rng.uniform(255)));
    try {
      const Schedule s = parse_schedule(bad, false, "flip");
      EXPECT_GE(s.gpus(), 2);
    } catch (const Error&) {
    }
  }
}

TEST(ScheduleIo, TextGarbageRejected) {
  const QuietStderr quiet;
  EXPECT_THROW(parse_schedule("gpus: banana", true, "t.pbtxt"), Error);
  EXPECT_THROW(parse_schedule("{{{", true, "t.pbtxt"), Error);
  // Well-formed text without the end marker is rejected as truncated.
  EXPECT_THROW(parse_schedule("collective: \"alltoall\" gpus: 4", true, "t.pbtxt"), Error);
}

TEST(ScheduleIo, RejectingAFileWritesNothingToStderr) {
  ::testing::internal::CaptureStderr();
  EXPECT_THROW(parse_schedule("gpus: banana", true, "t.pbtxt"), Error);
  std::string text_noise = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(text_noise, "");
  // A string field (collective, tag 1) holding invalid UTF-8.
  const std::string bad_utf8("\x0a\x02\xff\xfe", 4);
  ::testing::internal::CaptureStderr();
  EXPECT_THROW(parse_schedule(bad_utf8, false, "u.bin"), Error);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

TEST(ScheduleIo, InvariantViolationsInFileAreRejected) {
  std::string text = serialize_schedule(handmade(), true);
  // Point a step at a missing topology.
  const std::string needle = "  topology: 1";  // a step, not initial_topology
  const size_t at = text.find(needle);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, needle.size(), "  topology: 9");
  try {
    parse_schedule(text, true, "bad.pbtxt");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'bad.pbtxt'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("topology index 9"), std::string::npos) << msg;
  }
}

// Issue 32, finding 4: one rule for configs and schedule files: a message of
// 0 bytes is refused (before: a .pbtxt of message_bytes 0 replayed in 0 ps).
TEST(ScheduleIo, AMessageOfNoBytesIsRefusedAsInAConfig) {
  std::string text = serialize_schedule(handmade(), true);
  const std::string needle = "message_bytes: 123456789";
  const size_t at = text.find(needle);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, needle.size(), "message_bytes: 0");
  try {
    parse_schedule(text, true, "zero.pbtxt");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'zero.pbtxt': message_bytes must be positive"), std::string::npos)
        << e.what();
  }
  text.replace(at, std::string("message_bytes: 0").size(), "");  // absent: 0 too
  EXPECT_THROW(parse_schedule(text, true, "absent.pbtxt"), Error);
}

TEST(ScheduleIo, UnknownCollectiveRejected) {
  std::string text = serialize_schedule(handmade(), true);
  const std::string needle = "collective: \"allreduce\"";
  const size_t at = text.find(needle);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, needle.size(), "collective: \"gossip\"");
  try {
    parse_schedule(text, true, "c.pbtxt");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gossip"), std::string::npos) << e.what();
  }
}

TEST_F(ScheduleIoFiles, WriteAndReadBinaryAndTextByExtension) {
  const Schedule s = handmade();
  for (const char* name : {"s.bin", "s.pb", "s.pbtxt", "s.textproto", "s.txtpb"}) {
    const fs::path path = dir_ / "nested" / name;
    write_schedule(s, path.string());
    std::ifstream in(path, std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    const std::string ext = path.extension().string();
    const bool text = ext == ".pbtxt" || ext == ".textproto" || ext == ".txtpb";
    EXPECT_EQ(buf.str(), serialize_schedule(s, text)) << name;
    expect_same(s, read_schedule(path.string()));
    EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
  }
}

TEST_F(ScheduleIoFiles, MissingFileErrorNamesPath) {
  const std::string path = (dir_ / "does_not_exist.bin").string();
  try {
    read_schedule(path);
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST_F(ScheduleIoFiles, TruncatedFileErrorNamesPath) {
  const fs::path path = dir_ / "t.bin";
  write_schedule(handmade(), path.string());
  fs::resize_file(path, fs::file_size(path) - 3);
  try {
    read_schedule(path.string());
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace photonsim
