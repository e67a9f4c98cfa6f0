// Harvest plans replayed on the packet engine: measured against Harvest's own
// prediction (the paper's cost, alpha + delta * l_i + beta * m_i / theta per
// step, alpha_r per change, unless a test names the default `overlapped`).
// Exact where the fluid model is exact; elsewhere the error is printed with
// its reason.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "schedules/synthesizer_registry.h"
#include "sim/engine/schedule_execution.h"
#include "tests/support/test_fabric.h"
#include "tests/support/test_workload.h"

namespace photonsim {
namespace {

struct Case {
  FabricSpec fabric;
  WorkloadSpec workload;
  SynthesisSpec synthesis;
};

Case setup(int gpus, int ports, const std::string& algorithm, Collective collective, int64_t message) {
  Case s;
  s.fabric = testing_support::test_fabric(gpus, ports);
  s.fabric.step_overhead = Time::ns(200);
  s.fabric.reconfig_delay = Time::ns(10);
  s.workload = testing_support::test_workload(collective, message);
  s.synthesis.algorithm = algorithm;
  s.synthesis.planner = "harvest";
  s.synthesis.planner_params["cost"] = "paper";
  s.synthesis.topology.type = "ring";
  return s;
}

double error_pct(Time measured, Time predicted) {
  return 100.0 * static_cast<double>(measured.picoseconds() - predicted.picoseconds()) /
         static_cast<double>(predicted.picoseconds());
}

struct Replayed {
  Schedule schedule;
  RunResult result;
};

Replayed harvest_replay_replay(const Case& s) {
  Schedule schedule = SynthesizerRegistry::with_builtins().synthesize(s.fabric, s.workload, s.synthesis);
  RunResult result = run_schedule(s.fabric, s.workload, schedule);
  return {std::move(schedule), std::move(result)};
}

void print(const std::string& label, const Replayed& r) {
  std::printf("[harvest replay] %s: %d reconfigurations, predicted %s, measured %s, error %+.3f%%\n", label.c_str(),
              r.schedule.reconfigurations(), format_time(r.schedule.prediction().total()).c_str(),
              format_time(r.result.completion).c_str(),
              error_pct(r.result.completion, r.schedule.prediction().total()));
  for (size_t i = 0; i < r.result.steps.size(); ++i) {
    const StepPrediction& p = r.schedule.prediction().steps[i];
    std::printf("  step %zu: predicted %s (reconf %s + startup %s + prop %s + trans %s), measured %s, error %+.3f%%\n",
                i + 1, format_time(p.total()).c_str(), format_time(p.reconfiguration).c_str(),
                format_time(p.startup).c_str(), format_time(p.propagation).c_str(), format_time(p.transmission).c_str(),
                format_time(r.result.steps[i].measured()).c_str(), error_pct(r.result.steps[i].measured(), p.total()));
  }
}

// With reconfiguration this cheap Harvest gives every step of recursive
// doubling its own circuits: each flow is one hop on a circuit of its own,
// the case where alpha + delta + beta * m_i is exact under any router and
// any packet size. Measured equals predicted to the picosecond (LP-based
// plans: theta = 1 up to the LP's tolerance, a picosecond at most).
TEST(HarvestReplay, ContentionFreePlanMatchesThePredictionExactly) {
  for (const char* closed_form : {"true", "false"}) {
    for (RouterMode router : {RouterMode::store_and_forward, RouterMode::cut_through}) {
      for (int64_t packet : {0, 4096}) {
        Case s = setup(8, 1, "recursive_doubling", Collective::allreduce, 8'000'000);
        s.synthesis.planner_params["closed_form"] = closed_form;
        s.fabric.router = router;
        s.fabric.packet = Bytes(packet);
        const Replayed r = harvest_replay_replay(s);
        const std::string label = std::string("contention-free RD n=8, closed_form=") + closed_form + ", " +
                                  to_string(router) + ", packet " + std::to_string(packet);
        if (packet == 0 && router == RouterMode::store_and_forward) print(label, r);
        ASSERT_EQ(r.result.steps.size(), r.schedule.prediction().steps.size());
        for (size_t i = 0; i < r.result.steps.size(); ++i) {
          const StepPrediction& p = r.schedule.prediction().steps[i];
          EXPECT_EQ(p.propagation, s.fabric.latency) << label << " step " << i + 1;  // one hop
          EXPECT_NEAR(static_cast<double>(r.result.steps[i].measured().picoseconds()),
                      static_cast<double>(p.total().picoseconds()), 2.0)
              << label << " step " << i + 1;
          EXPECT_EQ(r.result.steps[i].reconfiguration, p.reconfiguration) << label << " step " << i + 1;
        }
        EXPECT_LT(std::abs(error_pct(r.result.completion, r.schedule.prediction().total())), 1e-3) << label;
      }
    }
  }
}

// A static ring (reconfiguration too slow to pay off): step i of recursive
// doubling crosses h = 2^(i-1) hops and every circuit carries h flows.
// Harvest predicts h * delta + h * beta * m_i. With store-and-forward of
// whole transfers the flows advance in lock-step, one hop per round of
// delta + beta * m_i, so the model is exact again. Cut-through, or packets
// smaller than the transfer, let a flow's packets overlap hops, so part of
// the h * delta the model charges is hidden behind transmission and the
// step runs up to a few percent faster than predicted (printed).
TEST(HarvestReplay, CongestedStaticRingReportsTheModelError) {
  struct Variant {
    RouterMode router;
    int64_t packet;
    bool exact;
  };
  for (const Variant& v :
       {Variant{RouterMode::store_and_forward, 0, true}, Variant{RouterMode::store_and_forward, 65536, false},
        Variant{RouterMode::cut_through, 65536, false}}) {
    for (int64_t message : {int64_t{8'000}, int64_t{8'000'000}}) {
      for (const char* closed_form : {"true", "false"}) {
        Case s = setup(8, 1, "recursive_doubling", Collective::allreduce, message);
        s.fabric.reconfig_delay = Time::ms(10);
        s.fabric.router = v.router;
        s.fabric.packet = Bytes(v.packet);
        s.synthesis.planner_params["closed_form"] = closed_form;
        const Replayed r = harvest_replay_replay(s);
        ASSERT_EQ(r.schedule.reconfigurations(), 0);
        const std::string label = "static ring RD n=8, m=" + std::to_string(message) + ", " + to_string(v.router) +
                                  ", packet " + std::to_string(v.packet) + ", closed_form=" + closed_form;
        if (std::string(closed_form) == "true") print(label, r);
        const double error = error_pct(r.result.completion, r.schedule.prediction().total());
        if (v.exact) {
          EXPECT_LT(std::abs(error), 1e-3) << label;
        } else {
          EXPECT_LE(error, 1e-3) << label;  // overlap only ever helps
          EXPECT_GT(error, -60.0) << label;
        }
      }
    }
  }
}

// The same static ring under the default cost, which overlaps propagation
// with transmission: alpha + max(delta + beta * m_i * h, h * delta + (h - 1)
// * forwarding unit + beta * m_i). Exact for store-and-forward of whole
// transfers (the flows advance in lock-step: h * (delta + beta * m_i)), and
// within 5 % where packets overlap hops, where the paper's cost is up to 60 %
// above the measurement.
TEST(HarvestReplay, OverlappedCostFollowsTheCongestedStaticRing) {
  for (RouterMode router : {RouterMode::store_and_forward, RouterMode::cut_through}) {
    for (int64_t packet : {int64_t{0}, int64_t{65536}}) {
      for (int64_t message : {int64_t{8'000}, int64_t{8'000'000}}) {
        Case s = setup(8, 1, "recursive_doubling", Collective::allreduce, message);
        s.fabric.reconfig_delay = Time::ms(10);
        s.fabric.router = router;
        s.fabric.packet = Bytes(packet);
        s.synthesis.planner_params.erase("cost");
        const Replayed r = harvest_replay_replay(s);
        ASSERT_EQ(r.schedule.reconfigurations(), 0);
        ASSERT_EQ(r.schedule.prediction().model, "harvest_overlapped");
        const std::string label = "static ring RD n=8, m=" + std::to_string(message) + ", " + to_string(router) +
                                  ", packet " + std::to_string(packet) + ", cost overlapped";
        print(label, r);
        const double error = error_pct(r.result.completion, r.schedule.prediction().total());
        if (router == RouterMode::store_and_forward && packet == 0) {
          EXPECT_LT(std::abs(error), 1e-3) << label;
        } else {
          EXPECT_LT(std::abs(error), 5.0) << label;
        }
      }
    }
  }
}

// The general DP with multipath: a two-port fabric, transfers split over the
// max-concurrent-flow paths (Transfer::routes) replayed as separate flows.
// theta is a fluid rate allocation over paths of different lengths; Harvest
// assumes cut-through GPUs (its Sec. 3.1), and with small packets the packet
// engine comes within a few percent (FIFO egress queues do not enforce the
// LP's rates, so steps mixing 1- and 2-hop paths run a little longer). With
// store-and-forward of whole transfers every multi-hop route pays its
// serialisation once per hop and the fluid model is far off (about 2x here).
// (Direct all-to-all from the same start now takes the static planner's
// rounds by hop count, single paths, 83.1 us where its multipath plan
// measured 98.9 us: PlannerDecisions covers that choice.)
TEST(HarvestReplay, MultipathPlanReplaysAndReportsItsError) {
  for (const char* algorithm : {"bruck"}) {
    for (RouterMode router : {RouterMode::cut_through, RouterMode::store_and_forward}) {
      Case s = setup(8, 2, algorithm, Collective::alltoall, 1'000'000);
      s.fabric.reconfig_delay = Time::ms(1);
      s.fabric.router = router;
      s.fabric.packet = Bytes(router == RouterMode::cut_through ? 4096 : 0);
      s.synthesis.topology.type = "circulant";
      s.synthesis.topology.params["generators"] = "[1, 3]";
      const Replayed r = harvest_replay_replay(s);
      print(std::string(algorithm) + " all-to-all n=8, 2 ports, from circulant(1,3), " + to_string(router) +
                ", packet " + std::to_string(s.fabric.packet.count()),
            r);
      size_t multipath = 0;
      for (const Step& step : r.schedule.steps()) {
        for (const Transfer& t : step.transfers) multipath += t.routes.size() > 1 ? 1 : 0;
      }
      std::printf("  transfers split over several paths: %zu\n", multipath);
      EXPECT_GT(multipath, 0u);
      EXPECT_EQ(r.result.network.bytes_delivered, r.result.network.bytes_injected);
      if (router == RouterMode::cut_through) {
        EXPECT_LT(std::abs(error_pct(r.result.completion, r.schedule.prediction().total())), 15.0) << algorithm;
      }
    }
  }
}

// Swing's steps are pairwise exchanges: on two bidirectional ports Harvest
// puts both ports of a GPU on its partner (the paper's x_{u,v} = 2), and each
// transfer is split in halves over the two circuits. Every flow is one hop on
// a circuit of its own, so measured equals predicted to the picosecond, and
// each step moves at twice a circuit's rate.
TEST(HarvestReplay, PairwiseExchangeStripesOverBothPortsOfEachPair) {
  Case s = setup(8, 2, "swing", Collective::reducescatter, 8'000'000);
  s.fabric.circuits = CircuitKind::bidirectional;
  s.synthesis.topology.params["bidirectional"] = "true";
  const Replayed r = harvest_replay_replay(s);
  print("swing reduce-scatter n=8, 2 bidirectional ports", r);
  ASSERT_EQ(r.schedule.steps().size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const Step& step = r.schedule.steps()[i];
    const Topology& topology = r.schedule.topologies()[static_cast<size_t>(step.topology)];
    for (const Transfer& t : step.transfers) {
      EXPECT_EQ(topology.multiplicity(t.src, t.dst), 2) << "step " << i + 1;
      ASSERT_EQ(t.routes.size(), 2u) << "step " << i + 1;
      EXPECT_EQ(t.routes[0].bytes + t.routes[1].bytes, t.bytes);
    }
    const Bytes half(8'000'000 / 8 * (4 >> i) / 2);  // m / 2^(i+1) per transfer, in two halves
    EXPECT_NEAR(static_cast<double>(r.schedule.prediction().steps[i].transmission.picoseconds()),
                10.0 * static_cast<double>(half.count()), 2.0)  // the LP's tolerance
        << "step " << i + 1;
  }
  EXPECT_NEAR(static_cast<double>(r.result.completion.picoseconds()),
              static_cast<double>(r.schedule.prediction().total().picoseconds()), 6.0);

  // Without the family every pair keeps one circuit: each step at one circuit's rate.
  s.synthesis.planner_params["candidates"] = "[initial, step, shifted_ring, torus, expander]";
  const Replayed one = harvest_replay_replay(s);
  for (size_t i = 0; i < 3; ++i) {
    const Bytes whole(8'000'000 / 8 * (4 >> i));
    EXPECT_NEAR(static_cast<double>(one.schedule.prediction().steps[i].transmission.picoseconds()),
                10.0 * static_cast<double>(whole.count()), 2.0)
        << "step " << i + 1;
  }
  EXPECT_GT(one.result.completion, r.result.completion);
}

}  // namespace
}  // namespace photonsim
