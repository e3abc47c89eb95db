// Schedule shapes (docs/architecture.md, "Collective semantics"): who sends which slot to whom in
// every round, in seed and nccl order, written out from the definition and compared with
// make_schedule.
#include <doctest/doctest.h>

#include <string>

#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

int wrap(int value, int ranks) { return ((value % ranks) + ranks) % ranks; }

// One round as text: "0>1:s2 reduce, 1>2:s0 reduce, ..." (completes_slot marked with '!').
std::string round_text(const Round& round) {
  std::string text = std::string(phase_name(round.phase)) + ":";
  for (const Transfer& transfer : round.transfers)
    text += " " + std::to_string(transfer.src) + ">" + std::to_string(transfer.dst) + ":s" +
            std::to_string(transfer.slot) + (transfer.kind == TransferKind::reduce ? "r" : "c") +
            (transfer.completes_slot ? "!" : "");
  return text;
}

// The rounds docs/architecture.md ("Collective semantics") describes, built from its formulas
// alone.
std::vector<std::string> designed_rounds(Op op, Order order, int n) {
  std::vector<std::string> rounds;
  std::vector<int> owned(static_cast<std::size_t>(n));
  if (op != Op::allgather) {
    for (int t = 0; t + 1 < n; ++t) {
      std::string text = "reduce-scatter:";
      for (int r = 0; r < n; ++r) {
        const int slot = order == Order::seed ? wrap(r - t, n) : wrap(r - 1 - t, n);
        text += " " + std::to_string(r) + ">" + std::to_string((r + 1) % n) + ":s" +
                std::to_string(slot) + "r" + (t == n - 2 ? "!" : "");
      }
      rounds.push_back(text);
    }
    for (int r = 0; r < n; ++r) owned[static_cast<std::size_t>(r)] = order == Order::seed ? (r + 1) % n : r;
  } else {
    for (int r = 0; r < n; ++r) owned[static_cast<std::size_t>(r)] = r;
  }
  if (op != Op::reducescatter) {
    // The all-gather pass starts from the slot each rank owns and forwards what it received.
    for (int t = 0; t + 1 < n; ++t) {
      std::string text = "all-gather:";
      for (int r = 0; r < n; ++r)
        text += " " + std::to_string(r) + ">" + std::to_string((r + 1) % n) + ":s" +
                std::to_string(wrap(owned[static_cast<std::size_t>(r)] - t, n)) + "c";
      rounds.push_back(text);
    }
  }
  return rounds;
}

TEST_CASE("Every schedule is the one the collective semantics define, in seed and nccl order") {
  for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce})
    for (Order order : {Order::seed, Order::nccl})
      for (int n = 1; n <= 12; ++n) {
        INFO(op_name(op), " ", order_name(order), " N=", n);
        const Config config = ConfigBuilder().op(op).order(order).ranks(n);
        const Schedule schedule = make_schedule(config);
        const std::vector<std::string> expected = designed_rounds(op, order, n);
        REQUIRE(schedule.round_count() == static_cast<int>(expected.size()));
        for (int round = 0; round < schedule.round_count(); ++round)
          CHECK(round_text(schedule.rounds[static_cast<std::size_t>(round)]) ==
                expected[static_cast<std::size_t>(round)]);
      }
}

TEST_CASE("The rounds number N-1 for one pass and 2(N-1) for AllReduce") {
  const ConfigBuilder eight = ConfigBuilder().ranks(8);
  CHECK(make_schedule(eight.op(Op::allgather)).round_count() == 7);
  CHECK(make_schedule(eight.op(Op::reducescatter)).round_count() == 7);
  CHECK(make_schedule(eight.op(Op::allreduce)).round_count() == 14);
  CHECK(make_schedule(eight.op(Op::allreduce).ranks(1)).round_count() == 0);
}

TEST_CASE("The owned slot is r+1 in seed order and r in nccl order, and r in AllGather") {
  for (int n : {1, 2, 5, 16}) {
    Config config = ConfigBuilder().ranks(n);
    for (int r = 0; r < n; ++r) {
      INFO("N=", n, " rank ", r);
      config.op = Op::reducescatter;
      config.order = Order::seed;
      CHECK(make_schedule(config).owned_slot[static_cast<std::size_t>(r)] == (r + 1) % n);
      config.op = Op::allreduce;
      CHECK(make_schedule(config).owned_slot[static_cast<std::size_t>(r)] == (r + 1) % n);
      config.order = Order::nccl;
      CHECK(make_schedule(config).owned_slot[static_cast<std::size_t>(r)] == r);
      config.op = Op::allgather;
      CHECK(make_schedule(config).owned_slot[static_cast<std::size_t>(r)] == r);
    }
  }
}

TEST_CASE("The source article's four-GPU seed table: step 0 sends slot r, step 1 slot r-1") {
  const Config config = ConfigBuilder().op(Op::reducescatter).ranks(4);
  const Schedule schedule = make_schedule(config);
  CHECK(round_text(schedule.rounds[0]) == "reduce-scatter: 0>1:s0r 1>2:s1r 2>3:s2r 3>0:s3r");
  CHECK(round_text(schedule.rounds[1]) == "reduce-scatter: 0>1:s3r 1>2:s0r 2>3:s1r 3>0:s2r");
  CHECK(round_text(schedule.rounds[2]) == "reduce-scatter: 0>1:s2r! 1>2:s3r! 2>3:s0r! 3>0:s1r!");
}

}  // namespace
}  // namespace ringviz
