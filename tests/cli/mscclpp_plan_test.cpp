// MSCCL++ execution plans written by MSCCL++'s own code
// (tests/data/external/README.md): mscclpp.language's example programs and
// the plans MSCCL++'s executor tests run, read, verified and run in their
// closed forms on photonsim's fabric; NVLS plans refused with the reason; a
// list of plans runs the one whose message-size range holds the buffer.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli/msccl_file_runs.h"
#include "tests/support/test_paths.h"

namespace photonsim_test {
namespace {

const std::string kPlans = std::string(PHOTONSIM_SOURCE_DIR) + "/tests/data/external/mscclpp/";

class MscclppPlans : public MscclFileRuns {
 protected:
  // Verifies the plan and returns its measured time at `message`.
  int64_t time_of(int gpus, const std::string& collective, const std::string& plan,
                  const std::string& message = "1MiB") {
    const std::string path = config(gpus, collective, kPlans + plan, message);
    EXPECT_NE(verified(path).find("verified: " + collective + " / msccl on " + std::to_string(gpus) + " GPUs"),
              std::string::npos)
        << plan;
    return measured(path);
  }
};

// One level: each GPU puts its half (512 KiB) into the peer's output; with
// thread-block groups, four slices move it together.
TEST_F(MscclppPlans, AllGathersTakeTheirClosedForms) {
  EXPECT_EQ(time_of(2, "allgather", "language/allgather.json"), kHop + 524'288 * kPsPerByte);
  EXPECT_EQ(time_of(2, "allgather", "language/allgather_tbg.json"), kHop + 524'288 * kPsPerByte);
  EXPECT_EQ(time_of(2, "allgather", "executor-tests/transfer_pack_tbg.json"), kHop + 524'288 * kPsPerByte);
  // LL packets: every GPU's quarter to each of 3 peers, one level.
  EXPECT_EQ(time_of(4, "allgather", "language/allgather_pkt.json"), kHop + 262'144 * kPsPerByte);
}

// Read-reduce-send and its packet forms: a reduce-scatter level and an
// all-gather level, each moving a GPU's share to (or from) every peer.
TEST_F(MscclppPlans, AllReducesTakeTheirClosedForms) {
  EXPECT_EQ(time_of(4, "allreduce", "language/allreduce_from_256k.json"), 2 * (kHop + 262'144 * kPsPerByte));
  EXPECT_EQ(time_of(4, "allreduce", "language/allreduce_pkt_upto_256k.json", "256KiB"),
            2 * (kHop + 65'536 * kPsPerByte));
  for (const char* plan :
       {"executor-tests/allreduce.json", "executor-tests/allreduce_packet.json", "executor-tests/reduce_pack_tbg.json"})
    EXPECT_EQ(time_of(2, "allreduce", plan), 2 * (kHop + 524'288 * kPsPerByte)) << plan;
  // reduce.json mixes rres, get, res, rre and put over four 256 KiB chunks:
  // the get and the put of chunks 2-3 share GPU 1's link with chunk 0's
  // write-back (768 KiB), and res writes chunk 1 back a level later.
  for (const char* plan : {"executor-tests/reduce.json", "executor-tests/reduce_tbg.json"})
    EXPECT_EQ(time_of(2, "allreduce", plan),
              (kHop + 524'288 * kPsPerByte) + (kHop + 786'432 * kPsPerByte) + (kHop + 262'144 * kPsPerByte))
        << plan;
}

// Every GPU puts 1 MiB to each peer at once (the pipelined form too: its
// units are not modelled, only the chunks).
TEST_F(MscclppPlans, AllToAllsTakeTheirClosedForms) {
  EXPECT_EQ(time_of(4, "alltoall", "language/alltoall.json"), kHop + 1'048'576 * kPsPerByte);
  EXPECT_EQ(time_of(4, "alltoall", "language/alltoall_pipeline.json"), kHop + 1'048'576 * kPsPerByte);
}

TEST_F(MscclppPlans, NvlsPlansAreRefusedSayingWhy) {
  const HostileOutcome o =
      run({"verify", config(4, "allgather", kPlans + "language/allgather_nvls_zero_copy_pkt.json", "1MiB")});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("allgather_nvls_zero_copy_pkt.json:34: gpus[0].threadblocks[0].ops[1] (gstorepkt): an NVLS "
                       "multimem op: photonsim's fabrics have no in-switch reduction or multicast"),
            std::string::npos)
      << o.err;
}

// The packet all-reduce is for buffers up to 256 KiB, read-reduce-send for
// larger ones: given both, the size picks, as MSCCL++'s executor does.
TEST_F(MscclppPlans, AListRunsThePlanWhoseSizeRangeHoldsTheBuffer) {
  const std::string both =
      "[" + kPlans + "language/allreduce_pkt_upto_256k.json, " + kPlans + "language/allreduce_from_256k.json]";
  EXPECT_EQ(measured(config(4, "allreduce", both, "64KiB")), 2 * (kHop + 16'384 * kPsPerByte));
  EXPECT_EQ(measured(config(4, "allreduce", both, "1MiB")), 2 * (kHop + 262'144 * kPsPerByte));
  // One plan out of its range: refused, naming the range.
  const HostileOutcome o =
      run({"verify", config(4, "allreduce", kPlans + "language/allreduce_pkt_upto_256k.json", "1MiB")});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("MSCCL runs this algorithm for buffers of 0..262144 bytes "
                       "(min_message_size..max_message_size), not 1048576"),
            std::string::npos)
      << o.err;
}

}  // namespace
}  // namespace photonsim_test
