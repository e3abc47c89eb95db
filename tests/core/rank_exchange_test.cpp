// One rank's sends and receives of a planned round (core/schedule/rank_exchange.h): the lists a
// process-per-rank transport posts. Both ends must list the transfers between them in one
// order, since NCCL pairs the k-th send from A to B with the k-th receive at B from A.
#include <doctest/doctest.h>

#include <vector>

#include "core/schedule/rank_exchange.h"
#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

CollectiveShape shape_of(const Config& config) {
  return {config.dtype, config.reduce, config.ranks, make_layout(config)};
}

CollectiveShape four_ranks() {
  const Config config = ConfigBuilder().ranks(4).count(16);
  return shape_of(config);
}

Transfer reduce(int src, int dst, int slot) { return {src, dst, slot, TransferKind::reduce, false, {}}; }
Transfer copy(int src, int dst, int slot) { return {src, dst, slot, TransferKind::copy, false, {}}; }

RankExchange exchange_of(const RoundPlan& plan, int rank) {
  RankExchange exchange;
  plan_rank_exchange(plan, rank, exchange);
  return exchange;
}

// The slots `from` sends to `to`, in the order it posts them.
std::vector<int> slots_sent(const RankExchange& from, int to) {
  std::vector<int> slots;
  for (const ExchangeSend& send : from.sends)
    if (send.peer == to) slots.push_back(send.slot);
  return slots;
}

// The slots `to` receives from `from`, in the order it posts them.
std::vector<int> slots_received(const RankExchange& to, int from) {
  std::vector<int> slots;
  for (const ExchangeReceive& receive : to.receives)
    if (receive.peer == from) slots.push_back(receive.slot);
  return slots;
}

TEST_CASE("A sender posts its transfers to a peer in the order the peer folds them, not the schedule's") {
  // Rank 2 sends slot 1 before slot 2 in the schedule, but rank 0 folds slot 2 first (its first
  // transfer comes earlier), so rank 2 must send slot 2 first.
  Round round;
  round.transfers = {reduce(3, 0, 2), copy(1, 2, 0), reduce(1, 0, 2), reduce(2, 0, 1),
                     reduce(2, 0, 2), reduce(3, 0, 1)};
  RoundPlanner planner;
  const RoundPlan& plan = planner.plan(round, four_ranks());
  const RankExchange zero = exchange_of(plan, 0);
  const RankExchange two = exchange_of(plan, 2);
  CHECK(slots_sent(two, 0) == std::vector<int>{2, 1});
  CHECK(slots_received(zero, 2) == std::vector<int>{2, 1});
  // Rank 0's receives follow its fold: slot 2 from 3, 1, 2, then slot 1 from 2, 3.
  REQUIRE(zero.receives.size() == 5);
  const std::vector<int> senders = {zero.receives[0].peer, zero.receives[1].peer, zero.receives[2].peer,
                                    zero.receives[3].peer, zero.receives[4].peer};
  CHECK(senders == std::vector<int>{3, 1, 2, 2, 3});
  CHECK(zero.sends.empty());
  CHECK(exchange_of(plan, 1).sends.size() == 2);
}

TEST_CASE("A slot that is also written in the round is sent from its staged copy") {
  Round round;
  round.transfers = {copy(0, 1, 1), reduce(2, 0, 1), copy(0, 3, 1), copy(2, 3, 2)};
  RoundPlanner planner;
  const RoundPlan& plan = planner.plan(round, four_ranks());
  const RankExchange zero = exchange_of(plan, 0);
  REQUIRE(zero.sends.size() == 2);
  for (const ExchangeSend& send : zero.sends) CHECK(send.staged_read == 0);
  const RankExchange two = exchange_of(plan, 2);
  REQUIRE(two.sends.size() == 2);
  for (const ExchangeSend& send : two.sends) CHECK(send.staged_read == PlannedTransfer::kReadsLiveSlot);
}

TEST_CASE("In every schedule each pair of ranks lists the transfers between them in one order") {
  for (Algorithm algorithm : kAllAlgorithms)
    for (Op op : {Op::allreduce, Op::reducescatter, Op::allgather})
      for (int n = 1; n <= 7; ++n) {
        if (!algorithm_supports(algorithm, op)) continue;
        const Config config = ConfigBuilder().algorithm(algorithm).op(op).ranks(n).count(std::int64_t{2} * n + 1);
        const CollectiveShape shape = shape_of(config);
        RoundPlanner planner;
        for (const Round& round : make_schedule(config).rounds) {
          const RoundPlan& plan = planner.plan(round, shape);
          std::vector<RankExchange> exchanges;
          std::size_t sends = 0;
          std::size_t receives = 0;
          for (int rank = 0; rank < n; ++rank) {
            exchanges.push_back(exchange_of(plan, rank));
            sends += exchanges.back().sends.size();
            receives += exchanges.back().receives.size();
          }
          INFO(algorithm_name(algorithm) << " " << op_name(op) << " N=" << n);
          CHECK(sends == round.transfers.size());
          CHECK(receives == round.transfers.size());
          for (int from = 0; from < n; ++from)
            for (int to = 0; to < n; ++to)
              CHECK(slots_sent(exchanges[static_cast<std::size_t>(from)], to) ==
                    slots_received(exchanges[static_cast<std::size_t>(to)], from));
        }
      }
}

TEST_CASE("In a ring round every rank sends one slot to its right neighbour and receives one from its left") {
  const Config config = ConfigBuilder().ranks(5).count(10);
  const CollectiveShape shape = shape_of(config);
  RoundPlanner planner;
  for (const Round& round : make_schedule(config).rounds) {
    const RoundPlan& plan = planner.plan(round, shape);
    for (int rank = 0; rank < 5; ++rank) {
      const RankExchange exchange = exchange_of(plan, rank);
      REQUIRE(exchange.sends.size() == 1);
      REQUIRE(exchange.receives.size() == 1);
      CHECK(exchange.sends[0].peer == (rank + 1) % 5);
      CHECK(exchange.receives[0].peer == (rank + 4) % 5);
    }
  }
}

}  // namespace
}  // namespace ringviz
