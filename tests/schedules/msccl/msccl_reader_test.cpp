// The MSCCL XML reader: what hand-written algorithms mean (levels, blocks,
// operations) and the one-line errors for malformed files, each naming the
// line and the element and attribute at fault.
#include "schedules/msccl/msccl_reader.h"

#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "tests/support/test_paths.h"

namespace photonsim {
namespace {

std::string shipped(const std::string& name) {
  std::ifstream in(std::string(PHOTONSIM_SOURCE_DIR) + "/configs/msccl/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The message of the Error reading `xml` throws ("" if none).
std::string msccl_reader_error_of(const std::string& xml) {
  try {
    read_msccl_xml(xml, "t.xml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// <algo> around the given GPUs, for 2 GPUs unless told.
std::string algo(const std::string& gpus, const std::string& attributes = "") {
  return "<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"allreduce\" "
         "inplace=\"1\"" +
         attributes + ">\n" + gpus + "</algo>\n";
}

std::string step(int s, const std::string& type, const std::string& src, int srcoff, const std::string& dst, int dstoff,
                 int cnt = 1, int depid = -1, int deps = -1) {
  return "<step s=\"" + std::to_string(s) + "\" type=\"" + type + "\" srcbuf=\"" + src + "\" srcoff=\"" +
         std::to_string(srcoff) + "\" dstbuf=\"" + dst + "\" dstoff=\"" + std::to_string(dstoff) + "\" cnt=\"" +
         std::to_string(cnt) + "\" depid=\"" + std::to_string(depid) + "\" deps=\"" + std::to_string(deps) +
         "\" hasdep=\"0\"/>\n";
}

std::string gpu(int id, const std::string& tbs, int i_chunks = 2, int s_chunks = 0) {
  return "<gpu id=\"" + std::to_string(id) + "\" i_chunks=\"" + std::to_string(i_chunks) +
         "\" o_chunks=\"0\" s_chunks=\"" + std::to_string(s_chunks) + "\">\n" + tbs + "</gpu>\n";
}

std::string tb(int id, int send, int recv, const std::string& steps, int chan = 0) {
  return "<tb id=\"" + std::to_string(id) + "\" send=\"" + std::to_string(send) + "\" recv=\"" + std::to_string(recv) +
         "\" chan=\"" + std::to_string(chan) + "\">\n" + steps + "</tb>\n";
}

// Two GPUs exchanging both halves: reduce-scatter (rrc) then all-gather (r).
std::string exchange_allreduce() {
  std::string out;
  for (int g = 0; g < 2; ++g) {
    const int peer = 1 - g;
    // GPU g sends the half the peer reduces, receives its own half to reduce,
    // then sends its reduced half back and receives the peer's.
    out += gpu(g, tb(0, peer, peer,
                     step(0, "s", "i", peer, "i", -1) + step(1, "rrc", "i", g, "i", g) + step(2, "s", "i", g, "i", -1) +
                         step(3, "r", "i", -1, "i", peer)));
  }
  return algo(out);
}

TEST(MscclReader, HandWrittenRingAllreduceBecomesTwoPhasesOfLevels) {
  const MscclProgram p = read_msccl_xml(shipped("ring_allreduce_4.xml"), "ring_allreduce_4.xml");
  EXPECT_EQ(p.collective, Collective::allreduce);
  EXPECT_EQ(p.gpus, 4);
  EXPECT_EQ(p.blocks, 4u);
  ASSERT_EQ(p.levels.size(), 6u);
  for (size_t level = 0; level < 6; ++level) {
    ASSERT_EQ(p.levels[level].size(), 4u);
    for (const Transfer& t : p.levels[level]) {
      EXPECT_EQ(t.dst, (t.src + 1) % 4);
      ASSERT_EQ(t.blocks.size(), 1u);
      // GPU r first sends chunk r-1; each level the chunk one further back.
      EXPECT_EQ(t.blocks[0], (t.src + 8 - 1 - level) % 4) << "level " << level << " from " << t.src;
      // rrs and rrcs reduce on arrival, rcs and r copy.
      EXPECT_EQ(t.op, level < 3 ? TransferOp::reduce : TransferOp::copy) << "level " << level;
    }
  }
}

TEST(MscclReader, HandWrittenAllPairsAlltoallIsOneLevelOfEveryFlow) {
  const MscclProgram p = read_msccl_xml(shipped("allpairs_alltoall_4.xml"), "allpairs_alltoall_4.xml");
  EXPECT_EQ(p.collective, Collective::alltoall);
  EXPECT_EQ(p.blocks, 16u);
  EXPECT_EQ(p.block_parts, 1u);
  ASSERT_EQ(p.levels.size(), 1u);
  ASSERT_EQ(p.levels[0].size(), 12u);
  for (const Transfer& t : p.levels[0]) {
    ASSERT_EQ(t.blocks.size(), 1u);
    EXPECT_EQ(t.blocks[0], t.src * 4 + t.dst);
    EXPECT_EQ(t.op, TransferOp::copy);
  }
}

TEST(MscclReader, ReceivesWaitForTheirSendAndThreadBlocksRunInOrder) {
  const MscclProgram p = read_msccl_xml(exchange_allreduce(), "t.xml");
  ASSERT_EQ(p.levels.size(), 2u);
  ASSERT_EQ(p.levels[0].size(), 2u);
  EXPECT_EQ(p.levels[0][0].blocks, std::vector<uint32_t>{1});
  EXPECT_EQ(p.levels[0][0].op, TransferOp::reduce);
  EXPECT_EQ(p.levels[1][0].blocks, std::vector<uint32_t>{0});
  EXPECT_EQ(p.levels[1][0].op, TransferOp::copy);
}

TEST(MscclReader, ACopyReducedLocallyLaterIsAReduction) {
  // GPU 0 sends chunk 0 into GPU 1's scratch, which adds it into chunk 0 (re).
  const std::string xml =
      algo(gpu(0, tb(0, 1, -1, step(0, "s", "i", 0, "i", -1))) +
           gpu(1, tb(0, -1, 0, step(0, "r", "i", -1, "s", 0) + step(1, "re", "s", 0, "i", 0)), 2, 1));
  const MscclProgram p = read_msccl_xml(xml, "t.xml");
  ASSERT_EQ(p.levels.size(), 1u);
  EXPECT_EQ(p.levels[0][0].op, TransferOp::reduce);
}

TEST(MscclReader, SendsOfOneThreadBlockShareALevelAndMerge) {
  const std::string xml = algo(gpu(0, tb(0, 1, -1, step(0, "s", "i", 0, "i", -1) + step(1, "s", "i", 1, "i", -1))) +
                               gpu(1, tb(0, -1, 0, step(0, "r", "i", -1, "i", 0) + step(1, "r", "i", -1, "i", 1))));
  const MscclProgram p = read_msccl_xml(xml, "t.xml");
  ASSERT_EQ(p.levels.size(), 1u);
  ASSERT_EQ(p.levels[0].size(), 1u);
  EXPECT_EQ(p.levels[0][0].blocks, (std::vector<uint32_t>{0, 1}));
}

TEST(MscclReader, AnExplicitDependencyOnASendWaitsForItsDelivery) {
  // GPU 0's second thread block sends to GPU 2 only after its first send (depid 0, deps 0).
  const std::string gpus =
      gpu(0, tb(0, 1, -1, step(0, "s", "i", 0, "i", -1)) + tb(1, 2, -1, step(0, "s", "i", 1, "i", -1, 1, 0, 0))) +
      gpu(1, tb(0, -1, 0, step(0, "r", "i", -1, "i", 0))) + gpu(2, tb(0, -1, 0, step(0, "r", "i", -1, "i", 1)));
  const std::string xml =
      "<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"3\" coll=\"broadcast\" "
      "inplace=\"1\" root=\"0\">\n" +
      gpus + "</algo>";
  const MscclProgram p = read_msccl_xml(xml, "t.xml");
  ASSERT_EQ(p.levels.size(), 2u);
  EXPECT_EQ(p.levels[0][0].dst, 1u);
  EXPECT_EQ(p.levels[1][0].dst, 2u);
}

TEST(MscclReader, CountsCarrySeveralChunksAndInPlaceBuffersAlias) {
  // All-gather in place: GPU g's input chunk 0 is its output chunk g.
  std::string gpus;
  for (int g = 0; g < 2; ++g) {
    gpus += "<gpu id=\"" + std::to_string(g) + "\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n" +
            tb(0, 1 - g, 1 - g, step(0, "s", "i", 0, "o", -1) + step(1, "r", "i", -1, "o", 1 - g)) + "</gpu>\n";
  }
  const MscclProgram p = read_msccl_xml(
      "<algo name=\"t\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"allgather\" inplace=\"1\">" + gpus +
          "</algo>",
      "t.xml");
  ASSERT_EQ(p.levels.size(), 1u);
  EXPECT_EQ(p.levels[0][0].blocks, std::vector<uint32_t>{0});
  EXPECT_EQ(p.levels[0][1].blocks, std::vector<uint32_t>{1});
}

TEST(MscclReader, AlltoallChunkFactorBecomesBlockParts) {
  // 2 GPUs, 2 chunks per flow: GPU g sends both of the peer's chunks in one step of cnt 2.
  std::string gpus;
  for (int g = 0; g < 2; ++g) {
    const int peer = 1 - g;
    gpus += "<gpu id=\"" + std::to_string(g) + "\" i_chunks=\"4\" o_chunks=\"4\" s_chunks=\"0\">\n" +
            tb(0, peer, peer, step(0, "s", "i", 2 * peer, "o", -1, 2) + step(1, "r", "i", -1, "o", 2 * peer, 2)) +
            "</gpu>\n";
  }
  const MscclProgram p = read_msccl_xml(
      "<algo name=\"t\" nchannels=\"1\" nchunksperloop=\"4\" ngpus=\"2\" coll=\"alltoall\" inplace=\"0\">" + gpus +
          "</algo>",
      "t.xml");
  EXPECT_EQ(p.blocks, 8u);
  EXPECT_EQ(p.block_parts, 2u);
  ASSERT_EQ(p.levels.size(), 1u);
  // Block (src*n + dst)*parts + part.
  EXPECT_EQ(p.levels[0][0].blocks, (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(p.levels[0][1].blocks, (std::vector<uint32_t>{4, 5}));
}

struct BadFile {
  std::string name;
  std::string xml;
  std::vector<std::string> fragments;
};

void PrintTo(const BadFile& b, std::ostream* out) { *out << b.name; }

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::vector<BadFile> bad_files() {
  const std::string good = exchange_allreduce();
  return {
      {"missing cnt",
       replace(good, " cnt=\"1\"", ""),
       {"t.xml:4:", "<gpu id=0> <tb id=0> <step s=0>", "attribute 'cnt' is missing"}},
      {"missing coll", replace(good, " coll=\"allreduce\"", ""), {"t.xml:1:", "<algo>", "'coll' is missing"}},
      {"step depends on itself",
       replace(good, "depid=\"-1\" deps=\"-1\"", "depid=\"0\" deps=\"0\""),
       {"t.xml:4:", "<step s=0>", "depends on itself"}},
      {"dependency cycle",
       replace(good, "depid=\"-1\" deps=\"-1\"", "depid=\"0\" deps=\"2\""),
       {"<gpu id=0> <tb id=0> <step s=0>", "never runs", "cycle"}},
      {"unknown step type",
       replace(good, "type=\"rrc\"", "type=\"rrx\""),
       {"t.xml:5:", "<step s=1>", "'type' is 'rrx'", "rrcs"}},
      {"unknown collective",
       replace(good, "coll=\"allreduce\"", "coll=\"reduce\""),
       {"t.xml:1:", "'coll' is 'reduce'", "alltoall"}},
      {"steps out of order", replace(good, "<step s=\"1\"", "<step s=\"7\""), {"t.xml:5:", "'s'", "expected 1"}},
      {"offset beyond the buffer",
       replace(good, "srcoff=\"1\"", "srcoff=\"5\""),
       {"t.xml:4:", "'srcoff' = 5", "i_chunks = 2"}},
      {"unmatched send",
       replace(good, "<step s=\"3\" type=\"r\"", "<step s=\"3\" type=\"nop\""),
       {"<gpu id=", "sends 2 time(s) to GPU", "receives 1 time(s)"}},
      {"send without a peer",
       replace(good, "send=\"1\" recv=\"1\"", "send=\"-1\" recv=\"1\""),
       {"t.xml:4:", "sends, but its thread block has send=-1"}},
      {"peer is itself",
       replace(good, "send=\"1\" recv=\"1\"", "send=\"0\" recv=\"1\""),
       {"<gpu id=0> <tb id=0>", "'send' names the GPU itself"}},
      {"unknown dependency",
       replace(good, "depid=\"-1\" deps=\"-1\"", "depid=\"9\" deps=\"0\""),
       {"'depid' names thread block 9"}},
      {"not a number", replace(good, "ngpus=\"2\"", "ngpus=\"two\""), {"'ngpus' must be an integer"}},
      {"truncated", good.substr(0, good.size() / 2), {"t.xml:", "the file ends"}},
      {"wrong root", "<algorithm/>", {"t.xml:1:", "the root element must be <algo>"}},
      {"empty", "", {"t.xml:1:", "no root element"}},
      {"mismatched end tag", replace(good, "</tb>", "</gpu>"), {"t.xml:", "</gpu> closes <tb>"}},
      {"repeated attribute", replace(good, "ngpus=\"2\"", "ngpus=\"2\" ngpus=\"2\""), {"'ngpus' twice"}},
      {"deep nesting",
       std::string(2000, '<').replace(0, 2000,
                                      [] {
                                        std::string s;
                                        for (int i = 0; i < 100; ++i) s += "<a>";
                                        return s;
                                      }()),
       {"nested deeper than 16"}},
      {"unknown entity", replace(good, "name=\"t\"", "name=\"&bad;\""), {"unknown entity '&bad;'"}},
      {"reads an empty chunk",
       replace(good, "type=\"s\" srcbuf=\"i\" srcoff=\"1\"", "type=\"s\" srcbuf=\"i\" srcoff=\"5\""),
       {"lies outside"}},
      {"allgather chunks",
       replace(replace(good, "coll=\"allreduce\"", "coll=\"allgather\""), "nchunksperloop=\"2\"",
               "nchunksperloop=\"3\""),
       {"'nchunksperloop' must be a multiple of ngpus = 2 for allgather (got 3)"}},
      {"broadcast without root",
       replace(good, "coll=\"allreduce\"", "coll=\"broadcast\""),
       {"<algo>", "attribute 'root' is missing"}},
  };
}

class MscclReaderRefuses : public testing::TestWithParam<BadFile> {};

TEST_P(MscclReaderRefuses, InOneLineNamingTheElement) {
  const std::string message = msccl_reader_error_of(GetParam().xml);
  ASSERT_FALSE(message.empty()) << "accepted";
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  for (const std::string& fragment : GetParam().fragments)
    EXPECT_NE(message.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << message;
}

INSTANTIATE_TEST_SUITE_P(MalformedFiles, MscclReaderRefuses, testing::ValuesIn(bad_files()),
                         [](const testing::TestParamInfo<BadFile>& param) {
                           std::string name;
                           for (char c : param.param.name)
                             name.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
                           return name;
                         });

TEST(MscclReader, ReadingAChunkThatHoldsNothingIsRefused) {
  // Broadcast from GPU 0: GPU 1 holds nothing it could send.
  const std::string gpus =
      gpu(0, tb(0, -1, 1, step(0, "r", "i", -1, "i", 0))) + gpu(1, tb(0, 0, -1, step(0, "s", "i", 0, "i", -1)));
  const std::string message = msccl_reader_error_of(
      "<algo name=\"t\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"broadcast\" inplace=\"1\" "
      "root=\"0\">\n" +
      gpus + "</algo>");
  EXPECT_NE(message.find("<gpu id=1> <tb id=0> <step s=0>: reads chunk 0 of srcbuf, which holds no data"),
            std::string::npos)
      << message;
}

TEST(MscclReader, ReducingDifferentBlocksIsRefused) {
  std::string good = exchange_allreduce();
  // GPU 1 reduces the arriving chunk 1 into its chunk 0.
  const size_t gpu1 = good.find("<gpu id=\"1\"");
  const std::string from = "type=\"rrc\" srcbuf=\"i\" srcoff=\"1\" dstbuf=\"i\" dstoff=\"1\"";
  good.replace(good.find(from, gpu1), from.size(), "type=\"rrc\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"i\" dstoff=\"0\"");
  const std::string message = msccl_reader_error_of(good);
  EXPECT_NE(message.find("reduces block 1 into a chunk holding block 0"), std::string::npos) << message;
}

}  // namespace
}  // namespace photonsim
