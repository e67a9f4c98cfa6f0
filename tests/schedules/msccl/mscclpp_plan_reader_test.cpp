// The MSCCL++ execution-plan reader: what small hand-written plans mean
// (which transfers, at which level, copy or reduce: signals, semaphores,
// barriers and LL packets carry the wait for data), and the one-line errors
// for malformed or hanging plans, each naming the line and the op.
#include "schedules/msccl/mscclpp_plan_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.h"

namespace photonsim {
namespace {

std::string mscclpp_plan_reader_error_of(const std::string& json) {
  try {
    read_mscclpp_plan(json, "t.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The line (from 1) of the first occurrence of `needle`.
int line_of(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  int line = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string ref(const std::string& type, int index, int size = 1) {
  return "{\"type\": \"" + type + "\", \"index\": " + std::to_string(index) + ", \"size\": " + std::to_string(size) +
         "}";
}
std::string remote(int id, int index, int size = 1) {
  return "{\"buffer_id\": " + std::to_string(id) + ", \"index\": " + std::to_string(index) +
         ", \"size\": " + std::to_string(size) + "}";
}
// A data op over memory channels, one line.
std::string data(const std::string& name, const std::vector<std::string>& src, const std::vector<std::string>& dst,
                 const std::string& extra = "") {
  return "{\"name\": \"" + name + "\", \"src_buff\": [" + join(src, ", ") + "], \"dst_buff\": [" + join(dst, ", ") +
         "], \"channel_type\": \"memory\"" + extra + "}";
}
std::string sync(const std::string& name, int channel = 0) {
  return "{\"name\": \"" + name + "\", \"channel_ids\": [" + std::to_string(channel) +
         "], \"channel_type\": \"memory\"}";
}

// A thread block using the GPU's memory channels and remote buffers 0..k-1.
std::string mscclpp_plan_reader_tb(int id, const std::vector<std::string>& ops, int channels = 1, int remotes = 1) {
  std::vector<std::string> ch, rb;
  for (int i = 0; i < channels; ++i) ch.push_back(std::to_string(i));
  for (int i = 0; i < remotes; ++i) rb.push_back(std::to_string(i));
  return "{\"id\": " + std::to_string(id) + ",\n \"channels\": [{\"channel_type\": \"memory\", \"channel_ids\": [" +
         join(ch, ", ") + "]}],\n \"remote_buffer_refs\": [{\"access_channel_type\": \"memory\", " +
         "\"remote_buffer_ids\": [" + join(rb, ", ") + "]}],\n \"ops\": [\n" + join(ops, ",\n") + "\n]}";
}

struct GpuSpec {
  int in = 1, out = 2, scratch = 0;
  std::vector<int> peers;                                   // memory channels, in order
  std::vector<std::pair<int, std::string>> remote_buffers;  // rank, type
  std::vector<std::string> tbs;
  int semaphores = 0;
};

std::string mscclpp_plan_reader_gpu(int id, const GpuSpec& g) {
  std::vector<std::string> peers, buffers, sems;
  for (int p : g.peers) peers.push_back(std::to_string(p));
  for (const auto& [rank, type] : g.remote_buffers)
    buffers.push_back("{\"rank\": " + std::to_string(rank) + ", \"type\": \"" + type +
                      "\", \"access_channel_types\": [\"memory\"]}");
  for (int s = 0; s < g.semaphores; ++s) sems.push_back("{\"init_value\": 0}");
  return "{\"id\": " + std::to_string(id) + ", \"input_chunks\": " + std::to_string(g.in) +
         ", \"output_chunks\": " + std::to_string(g.out) + ", \"scratch_chunks\": " + std::to_string(g.scratch) +
         ",\n \"channels\": [{\"channel_type\": \"memory\", \"connected_to\": [" + join(peers, ", ") +
         "]}],\n \"remote_buffers\": [" + join(buffers, ", ") + "],\n \"semaphores\": [" + join(sems, ", ") +
         "],\n \"threadblocks\": [\n" + join(g.tbs, ",\n") + "\n]}";
}

std::string plan(const std::string& collective, bool inplace, const std::vector<std::string>& gpus,
                 const std::string& header = "") {
  return "{\n\"name\": \"t\", \"collective\": \"" + collective +
         "\", \"protocol\": \"Simple\", \"inplace\": " + (inplace ? "true" : "false") + header + ",\n\"gpus\": [\n" +
         join(gpus, ",\n") + "\n]\n}\n";
}

// MSCCL++'s own 2-GPU all-gather (mscclpp.language tests/single_node/
// allgather.py): in place, each GPU puts its chunk into the peer's output,
// then signals; the peer waits.
std::string allgather_2() {
  std::vector<std::string> gpus;
  for (int g = 0; g < 2; ++g) {
    GpuSpec spec;
    spec.peers = {1 - g};
    spec.remote_buffers = {{1 - g, "o"}};
    spec.tbs = {mscclpp_plan_reader_tb(0, {sync("rlxsignal"), sync("rlxwait"), "{\"name\": \"nop\"}",
                                           data("put", {ref("o", g)}, {remote(0, g)}), sync("signal"), sync("wait")})};
    gpus.push_back(mscclpp_plan_reader_gpu(g, spec));
  }
  return plan("allgather", true, gpus);
}

struct Move {
  Node src, dst;
  std::vector<uint32_t> blocks;
  TransferOp op;
};

std::vector<std::vector<Move>> moves(const MscclProgram& p) {
  std::vector<std::vector<Move>> out;
  for (const auto& level : p.levels) {
    out.emplace_back();
    for (const Transfer& t : level) out.back().push_back({t.src, t.dst, t.blocks, t.op});
  }
  return out;
}

void expect_moves(const MscclProgram& p, const std::vector<std::vector<Move>>& want) {
  const auto got = moves(p);
  ASSERT_EQ(got.size(), want.size());
  for (size_t l = 0; l < want.size(); ++l) {
    ASSERT_EQ(got[l].size(), want[l].size()) << "level " << l;
    for (size_t i = 0; i < want[l].size(); ++i) {
      EXPECT_EQ(got[l][i].src, want[l][i].src) << "level " << l << " transfer " << i;
      EXPECT_EQ(got[l][i].dst, want[l][i].dst) << "level " << l << " transfer " << i;
      EXPECT_EQ(got[l][i].blocks, want[l][i].blocks) << "level " << l << " transfer " << i;
      EXPECT_EQ(got[l][i].op, want[l][i].op) << "level " << l << " transfer " << i;
    }
  }
}

TEST(MscclppPlan, AllGatherPutsEachChunkToThePeerInOneLevel) {
  const MscclProgram p = read_mscclpp_plan(allgather_2(), "t.json");
  EXPECT_EQ(p.collective, Collective::allgather);
  EXPECT_FALSE(p.custom);
  EXPECT_EQ(p.gpus, 2);
  EXPECT_EQ(p.blocks, 2u);
  EXPECT_EQ(p.block_parts, 1u);
  EXPECT_EQ(p.min_bytes, 0);
  EXPECT_EQ(p.max_bytes, 0);
  expect_moves(p, {{{0, 1, {0}, TransferOp::copy}, {1, 0, {1}, TransferOp::copy}}});
}

// GPU 0 of the small plans below: puts input chunk `chunk` into GPU 1's
// scratch chunk 0, then signals GPU 1.
GpuSpec put_and_signal(int in, int out, int chunk) {
  GpuSpec g;
  g.in = in, g.out = out, g.scratch = 1;
  g.peers = {1};
  g.remote_buffers = {{1, "s"}};
  g.tbs = {mscclpp_plan_reader_tb(0, {data("put", {ref("i", chunk)}, {remote(0, 0)}), sync("signal")})};
  return g;
}

// A custom plan on 3 GPUs: GPU 0 puts into GPU 1's scratch and signals;
// GPU 1 waits, then puts its own input to GPU 2. Its data was there from
// the start, but the wait holds it until GPU 0's transfer has landed.
std::string relay(bool with_wait) {
  const GpuSpec g0 = put_and_signal(1, 0, 0);
  GpuSpec g1 = g0;
  g1.peers = {0, 2};
  g1.remote_buffers = {{2, "s"}};
  std::vector<std::string> ops;
  if (with_wait) ops.push_back(sync("wait", 0));
  ops.push_back(data("put", {ref("i", 0)}, {remote(0, 0)}));
  g1.tbs = {mscclpp_plan_reader_tb(0, ops, 2)};
  GpuSpec g2 = g0;
  g2.peers = {1};
  g2.remote_buffers = {};
  g2.tbs = {};
  return plan("custom", false,
              {mscclpp_plan_reader_gpu(0, g0), mscclpp_plan_reader_gpu(1, g1), mscclpp_plan_reader_gpu(2, g2)});
}

TEST(MscclppPlan, AWaitHoldsTheWaiterUntilTheSignallersDataHasLanded) {
  const MscclProgram with = read_mscclpp_plan(relay(true), "t.json");
  EXPECT_TRUE(with.custom);
  EXPECT_EQ(with.blocks, 3u);  // one input chunk a GPU
  expect_moves(with, {{{0, 1, {0}, TransferOp::copy}}, {{1, 2, {1}, TransferOp::copy}}});
  expect_moves(read_mscclpp_plan(relay(false), "t.json"),
               {{{0, 1, {0}, TransferOp::copy}, {1, 2, {1}, TransferOp::copy}}});
}

// An in-place all-reduce of 2 chunks on 2 GPUs, each GPU one thread block
// running ops(g), the peer's input its remote buffer 0.
template <typename Ops>
std::string allreduce_2(Ops ops) {
  std::vector<std::string> gpus;
  for (int g = 0; g < 2; ++g) {
    GpuSpec spec;
    spec.in = 2, spec.out = 2;
    spec.peers = {1 - g};
    spec.remote_buffers = {{1 - g, "i"}};
    spec.tbs = {mscclpp_plan_reader_tb(0, ops(g))};
    gpus.push_back(mscclpp_plan_reader_gpu(g, spec));
  }
  return plan("allreduce", true, gpus);
}

// All-reduce on 2 GPUs by read-reduce-send (mscclpp.language's allreduce):
// each GPU reads the peer's half and adds it (a reduction from the peer),
// then writes the sum back (a copy), a level later.
TEST(MscclppPlan, ReadReduceSendReducesFromThePeerThenCopiesBack) {
  const MscclProgram p = read_mscclpp_plan(
      allreduce_2([](int g) {
        return std::vector<std::string>{
            sync("rlxsignal"), sync("rlxwait"),
            data("rres", {ref("i", g), remote(0, g)}, {ref("i", g), remote(0, g)}, ", \"reduce_op\": \"sum\""),
            sync("signal"), sync("wait")};
      }),
      "t.json");
  EXPECT_EQ(p.blocks, 2u);
  expect_moves(p, {{{0, 1, {1}, TransferOp::reduce}, {1, 0, {0}, TransferOp::reduce}},
                   {{0, 1, {0}, TransferOp::copy}, {1, 0, {1}, TransferOp::copy}}});
}

// A get is a transfer from the buffer's owner; put into scratch and then
// added locally (re) makes that put a reduction.
TEST(MscclppPlan, GetMovesFromTheOwnerAndALocalReduceTurnsACopyIntoAReduction) {
  const GpuSpec g0 = put_and_signal(2, 2, 1);
  GpuSpec g1 = g0;
  g1.peers = {0};
  g1.remote_buffers = {{0, "i"}};
  g1.tbs = {mscclpp_plan_reader_tb(0, {sync("wait"),
                                       "{\"name\": \"re\", \"src_buff\": [" + ref("i", 1) + ", " + ref("s", 0) +
                                           "], \"dst_buff\": [" + ref("i", 1) + "]}",
                                       data("get", {remote(0, 0)}, {ref("s", 0)})})};
  const MscclProgram p = read_mscclpp_plan(
      plan("allreduce", true, {mscclpp_plan_reader_gpu(0, g0), mscclpp_plan_reader_gpu(1, g1)}), "t.json");
  expect_moves(p, {{{0, 1, {1}, TransferOp::reduce}}, {{0, 1, {0}, TransferOp::copy}}});
}

// LL packets carry their own flag: an unpack waits for the packets it
// reads even with no signal, here on GPU 0, which runs first.
TEST(MscclppPlan, AnUnpackWaitsForItsPackets) {
  std::vector<std::string> gpus;
  for (int g = 0; g < 2; ++g) {
    GpuSpec spec;
    spec.scratch = 2;
    spec.peers = {1 - g};
    spec.remote_buffers = {{1 - g, "s"}};
    const std::string unpack =
        "{\"name\": \"upkt\", \"src_buff\": [" + ref("s", 1 - g) + "], \"dst_buff\": [" + ref("o", 1 - g) + "]}";
    spec.tbs = {mscclpp_plan_reader_tb(0, {unpack}),
                mscclpp_plan_reader_tb(1, {data("ppkt", {ref("o", g)}, {remote(0, g)})})};
    gpus.push_back(mscclpp_plan_reader_gpu(g, spec));
  }
  const MscclProgram p = read_mscclpp_plan(plan("allgather", true, gpus), "t.json");
  expect_moves(p, {{{0, 1, {0}, TransferOp::copy}, {1, 0, {1}, TransferOp::copy}}});
}

// Another thread block of GPU 1 sends only after a semaphore (or a barrier)
// tells it that GPU 0's data has landed: a level later.
std::string handover(const std::string& release, const std::string& acquire, int semaphores) {
  const GpuSpec g0 = put_and_signal(1, 0, 0);
  GpuSpec g1 = g0;
  g1.peers = {0};
  g1.remote_buffers = {{0, "s"}};
  g1.semaphores = semaphores;
  g1.tbs = {mscclpp_plan_reader_tb(0, {acquire, data("put", {ref("i", 0)}, {remote(0, 0)})}),
            mscclpp_plan_reader_tb(1, {sync("wait"), release})};
  return plan("custom", false, {mscclpp_plan_reader_gpu(0, g0), mscclpp_plan_reader_gpu(1, g1)});
}

TEST(MscclppPlan, SemaphoresAndBarriersCarryTheWaitAcrossThreadBlocks) {
  const std::vector<std::vector<Move>> want = {{{0, 1, {0}, TransferOp::copy}}, {{1, 0, {1}, TransferOp::copy}}};
  expect_moves(read_mscclpp_plan(handover("{\"name\": \"sem_release\", \"semaphore_ids\": [0]}",
                                          "{\"name\": \"sem_acquire\", \"semaphore_ids\": [0]}", 1),
                                 "t.json"),
               want);
  const std::string barrier = "{\"name\": \"barrier\", \"barrier_id\": 0, \"num_threadblocks\": 2}";
  expect_moves(read_mscclpp_plan(handover(barrier, barrier, 0), "t.json"), want);
}

// A thread-block group's slices move their chunk once; a pipeline's inner
// ops run once over the whole chunk.
TEST(MscclppPlan, GroupSlicesAndPipelinesMoveEachChunkOnce) {
  std::vector<std::string> gpus;
  for (int g = 0; g < 2; ++g) {
    GpuSpec spec;
    spec.peers = {1 - g};
    spec.remote_buffers = {{1 - g, "o"}};
    for (int slice = 0; slice < 2; ++slice) {
      const std::string put = data("put", {ref("o", g)}, {remote(0, g)},
                                   ", \"tbg_info\": {\"tb_id\": " + std::to_string(slice) + ", \"tbg_size\": 2}");
      spec.tbs.push_back(
          mscclpp_plan_reader_tb(slice, {g == 0 ? put
                                                : "{\"name\": \"pipeline\", \"iter_context\": {\"unit_size\": 1024, "
                                                  "\"num_chunks\": 1}, \"ops\": [" +
                                                      put + "]}"}));
    }
    gpus.push_back(mscclpp_plan_reader_gpu(g, spec));
  }
  expect_moves(read_mscclpp_plan(plan("allgather", true, gpus), "t.json"),
               {{{0, 1, {0}, TransferOp::copy}, {1, 0, {1}, TransferOp::copy}}});
}

TEST(MscclppPlan, MessageSizeRangesAreKept) {
  const MscclProgram p = read_mscclpp_plan(
      plan("allgather", true,
           {mscclpp_plan_reader_gpu(
                0,
                {1, 2, 0, {1}, {{1, "o"}}, {mscclpp_plan_reader_tb(0, {data("put", {ref("o", 0)}, {remote(0, 0)})})}}),
            mscclpp_plan_reader_gpu(
                1,
                {1, 2, 0, {0}, {{0, "o"}}, {mscclpp_plan_reader_tb(0, {data("put", {ref("o", 1)}, {remote(0, 1)})})}})},
           ", \"min_message_size\": 1024, \"max_message_size\": 65536"),
      "t.json");
  EXPECT_EQ(p.min_bytes, 1024);
  EXPECT_EQ(p.max_bytes, 65536);
  // The executor's default maximum, 2^64 - 1, is no bound.
  std::string open = allgather_2();
  open.insert(open.find(",\n\"gpus\""), ", \"max_message_size\": 18446744073709551615");
  EXPECT_EQ(read_mscclpp_plan(open, "t.json").max_bytes, 0);
}

// --- malformed plans ------------------------------------------------------

struct Edit {
  const char* name;
  std::string from;  // replaced (first occurrence) in allgather_2()
  std::string to;
  std::string at;       // the error's line is the line of this text after the edit
  std::string message;  // after "t.json:LINE: "
  bool last = false;    // `at` is its last occurrence
};

class MscclppPlanRefuses : public ::testing::TestWithParam<Edit> {};

TEST_P(MscclppPlanRefuses, InOneLineNamingTheLineAndTheOp) {
  std::string json = allgather_2();
  const Edit& e = GetParam();
  const size_t at = json.find(e.from);
  ASSERT_NE(at, std::string::npos) << e.from;
  json.replace(at, e.from.size(), e.to);
  const std::string message = mscclpp_plan_reader_error_of(json);
  const size_t where = e.last ? json.rfind(e.at) : json.find(e.at);
  ASSERT_NE(where, std::string::npos) << e.at;
  const long line = 1 + std::count(json.begin(), json.begin() + static_cast<long>(where), '\n');
  const std::string want = "t.json:" + std::to_string(line) + ": " + e.message;
  EXPECT_NE(message.find(want), std::string::npos) << message << "\nwanted: " << want;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

const std::string kPut = data("put", {ref("o", 0)}, {remote(0, 0)});

INSTANTIATE_TEST_SUITE_P(
    Malformed, MscclppPlanRefuses,
    ::testing::Values(
        Edit{"unknown_collective", "\"allgather\"", "\"allgatherv\"", "allgatherv",
             "'collective' is 'allgatherv'; photonsim reads allreduce, allgather, reducescatter, alltoall and custom"},
        Edit{"inplace_missing", "\"inplace\": true", "\"in_place\": true", "{", "the member 'inplace' is missing"},
        Edit{"unknown_op", kPut, "{\"name\": \"sendrecv\"}", "sendrecv",
             "gpus[0].threadblocks[0].ops[3] ('sendrecv'): 'name' is 'sendrecv'; photonsim reads nop, barrier, put"},
        Edit{"nvls_op", kPut, "{\"name\": \"glres\"}", "glres",
             "gpus[0].threadblocks[0].ops[3] (glres): an NVLS multimem op: photonsim's fabrics have no in-switch "
             "reduction or multicast"},
        Edit{"switch_buffer", "{\"buffer_id\": 0, \"index\": 0, \"size\": 1}", "{\"switch_channel_id\": 0}",
             "switch_channel_id", "gpus[0].threadblocks[0].ops[3] (put).dst_buff[0]: a switch-channel (NVLS) buffer"},
        Edit{"chunk_outside", "{\"type\": \"o\", \"index\": 0, \"size\": 1}",
             "{\"type\": \"o\", \"index\": 1, \"size\": 2}", "\"index\": 1, \"size\": 2",
             "gpus[0].threadblocks[0].ops[3] (put).src_buff[0]: chunks 1..2 lie outside GPU 0's buffer "
             "(output_chunks = 2)"},
        Edit{"bad_buffer_type", "{\"type\": \"o\", \"index\": 0", "{\"type\": \"x\", \"index\": 0", "\"x\"",
             "gpus[0].threadblocks[0].ops[3] (put).src_buff[0]: 'type' must be \"i\", \"o\" or \"s\" (got 'x')"},
        Edit{"remote_without_channel", kPut,
             "{\"name\": \"put\", \"src_buff\": [" + ref("o", 0) + "], \"dst_buff\": [" + remote(0, 0) + "]}",
             "\"buffer_id\"",
             "gpus[0].threadblocks[0].ops[3] (put).dst_buff[0]: 'buffer_id' names a remote buffer, but the op has no "
             "'channel_type' memory or port"},
        Edit{"remote_id_outside", "{\"buffer_id\": 0, \"index\": 0", "{\"buffer_id\": 3, \"index\": 0",
             "\"buffer_id\": 3",
             "gpus[0].threadblocks[0].ops[3] (put).dst_buff[0]: 'buffer_id' must be in 0..0 (got 3)"},
        Edit{"channel_id_outside", "\"channel_ids\": [0], \"channel_type\": \"memory\"}",
             "\"channel_ids\": [1], \"channel_type\": \"memory\"}", "\"channel_ids\": [1]",
             "gpus[0].threadblocks[0].ops[0] (rlxsignal): a channel id must be in 0..0 (got 1)"},
        Edit{"wrong_gpu_id", "{\"id\": 0, \"input_chunks\"", "{\"id\": 1, \"input_chunks\"", "{\"id\": 1, \"input",
             "gpus[0]: 'id' must be 0: GPUs are listed by rank"},
        Edit{"unlike_gpus", "\"output_chunks\": 2", "\"output_chunks\": 4", "{\"id\": 1, \"input",
             "gpus[1]: 'output_chunks' is 2, GPU 0's is 4: every GPU's buffers are cut alike"},
        Edit{"max_below_min", "\"inplace\": true",
             "\"inplace\": true, \"min_message_size\": 10, \"max_message_size\": 5", "\"inplace\"",
             "'max_message_size' (5) is below 'min_message_size' (10)"},
        Edit{"channel_to_itself", "\"connected_to\": [1]", "\"connected_to\": [0]", "\"connected_to\": [0]",
             "gpus[0].channels[0]: 'connected_to' names the GPU itself (0)"},
        Edit{"reads_nothing", data("put", {ref("o", 1)}, {remote(0, 1)}), data("put", {ref("o", 0)}, {remote(0, 1)}),
             data("put", {ref("o", 0)}, {remote(0, 1)}),
             "gpus[1].threadblocks[0].ops[3] (put): src_buff[0] reads chunk 0 of GPU 1's output, which holds no data "
             "of the allgather when the op runs"},
        Edit{"hangs", "{\"name\": \"signal\", \"channel_ids\": [0], \"channel_type\": \"memory\"}",
             "{\"name\": \"nop\"}", "\"name\": \"wait\"",
             "gpus[1].threadblocks[0].ops[5] (wait): never runs: it waits for a signal from GPU 0 on their "
             "connection 0 that never comes (the plan would hang)",
             true},
        Edit{"not_json", "{\n\"name\"", "{\n\"name\",", "\"name\",", "expected ':' after the member name 'name'"}),
    [](const auto& p) { return std::string(p.param.name); });

TEST(MscclppPlan, AReductionOfDifferentBlocksIsRefused) {
  const std::string json = allreduce_2([](int) {
    return std::vector<std::string>{data("rre", {ref("i", 0), remote(0, 1)}, {ref("i", 0)})};
  });
  EXPECT_NE(mscclpp_plan_reader_error_of(json).find(
                "t.json:" + std::to_string(line_of(json, "\"rre\"")) +
                ": gpus[0].threadblocks[0].ops[0] (rre): reduces block 1 (src_buff[1]) with block 0 "
                "(src_buff[0])"),
            std::string::npos)
      << mscclpp_plan_reader_error_of(json);
}

TEST(MscclppPlan, ABarrierThatTooFewThreadBlocksReachHangs) {
  const std::string barrier = "{\"name\": \"barrier\", \"barrier_id\": 0, \"num_threadblocks\": 2}";
  std::string json = handover(barrier, "{\"name\": \"nop\"}", 0);
  EXPECT_NE(mscclpp_plan_reader_error_of(json).find(
                "(barrier): never runs: it waits at barrier 0 for 2 thread blocks; 1 arrive (the "
                "plan would hang)"),
            std::string::npos)
      << mscclpp_plan_reader_error_of(json);
}

}  // namespace
}  // namespace photonsim
