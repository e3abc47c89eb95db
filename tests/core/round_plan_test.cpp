// The round planner every backend executes (docs/architecture.md, "Backends and the round
// planner"): destinations grouped by receiver, transfers in schedule order, staged reads,
// avg's division, and plans that do not leak into each other when storage is reused.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <vector>

#include "core/schedule/round_plan.h"
#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

// Counts the allocations made while a test asks for it, to check that planning reuses storage.
namespace {
std::atomic<bool> counting_allocations{false};
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  if (counting_allocations) ++allocations;
  if (void* memory = std::malloc(size ? size : 1)) return memory;
  throw std::bad_alloc();
}
// The nothrow form too (std::stable_sort's buffer): every new this binary makes must pair with
// the delete above, or the sanitizer build reports a mismatch.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  if (counting_allocations) ++allocations;
  return std::malloc(size ? size : 1);
}
// g++ 12 takes the free() below for a mismatch with the standard operator new once it inlines
// a vector's destructor; both are replaced here, and the sanitizer build checks the pairing.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete(void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace ringviz {
namespace {

CollectiveShape shape_of(const Config& config) {
  return {config.dtype, config.reduce, config.ranks, make_layout(config)};
}

CollectiveShape shape_with(int ranks, ReduceOp reduce = ReduceOp::sum) {
  const Config config = ConfigBuilder().ranks(ranks).count(std::int64_t{4} * ranks).reduce(reduce);
  return shape_of(config);
}

Transfer reduce(int src, int dst, int slot, bool completes = false) {
  return {src, dst, slot, TransferKind::reduce, completes, {}};
}

Transfer copy(int src, int dst, int slot) { return {src, dst, slot, TransferKind::copy, false, {}}; }

bool same(const Transfer& a, const Transfer& b) {
  return a.src == b.src && a.dst == b.dst && a.slot == b.slot && a.kind == b.kind &&
         a.completes_slot == b.completes_slot;
}

std::vector<int> sources(const RoundPlan& plan, int rank) {
  const auto span = plan.sources_of(rank);
  return {span.begin(), span.end()};
}

TEST_CASE("Ring rounds stage nothing and give every rank one destination read from its left neighbour") {
  for (int n = 1; n <= 9; ++n)
    for (Op op : {Op::allreduce, Op::reducescatter, Op::allgather})
      for (Order order : {Order::seed, Order::nccl}) {
        const Config config = ConfigBuilder().ranks(n).count(std::int64_t{3} * n + 1).op(op).order(order);
        const CollectiveShape shape = shape_of(config);
        RoundPlanner planner;
        for (const Round& round : make_schedule(config).rounds) {
          const RoundPlan& plan = planner.plan(round, shape);
          INFO("N=" << n << " " << op_name(op) << " " << order_name(order));
          CHECK(plan.staged_reads().empty());
          REQUIRE(plan.destinations().size() == static_cast<std::size_t>(n));
          for (int rank = 0; rank < n; ++rank) {
            REQUIRE(plan.destinations_of(rank).size() == 1);
            const PlannedDestination& destination = plan.destinations_of(rank)[0];
            CHECK(destination.rank == rank);
            CHECK(plan.transfers_into(destination).size() == 1);
            CHECK_FALSE(plan.transfers_into(destination)[0].reads_staged_copy());
            CHECK(sources(plan, rank) == std::vector<int>{(rank + n - 1) % n});
          }
        }
      }
}

TEST_CASE("A slot read and written in the same round is staged once, for every transfer that reads it") {
  // 0 sends slot 1 to 1 while 2 writes slot 1 of rank 0 and 3 also reads it: rank 0's slot 1
  // is read twice and written once.
  Round round;
  round.transfers = {copy(0, 1, 1), reduce(2, 0, 1), copy(0, 3, 1), copy(2, 3, 2)};
  RoundPlanner planner;
  const RoundPlan& plan = planner.plan(round, shape_with(4));
  REQUIRE(plan.staged_reads().size() == 1);
  CHECK(plan.staged_reads()[0] == RankSlot{0, 1});

  const PlannedDestination& into_one = plan.destinations_of(1)[0];
  REQUIRE(plan.transfers_into(into_one).size() == 1);
  CHECK(plan.transfers_into(into_one)[0].staged_read == 0);

  const PlannedDestination& into_zero = plan.destinations_of(0)[0];
  CHECK_FALSE(plan.transfers_into(into_zero)[0].reads_staged_copy());  // rank 2's slot 1 is not written

  REQUIRE(plan.destinations_of(3).size() == 2);
  CHECK(plan.transfers_into(plan.destinations_of(3)[0])[0].staged_read == 0);
  CHECK_FALSE(plan.transfers_into(plan.destinations_of(3)[1])[0].reads_staged_copy());
}

TEST_CASE("Several transfers into one destination stay in schedule order, and each receiver lists its senders once") {
  Round round;
  round.transfers = {reduce(3, 0, 2), copy(1, 2, 0), reduce(1, 0, 2), reduce(2, 0, 1),
                     reduce(2, 0, 2), reduce(3, 0, 1)};
  RoundPlanner planner;
  const RoundPlan& plan = planner.plan(round, shape_with(4));
  REQUIRE(plan.destinations_of(0).size() == 2);
  // Rank 0's destinations in the order their first transfer appears: slot 2, then slot 1.
  const PlannedDestination& slot_two = plan.destinations_of(0)[0];
  const PlannedDestination& slot_one = plan.destinations_of(0)[1];
  CHECK(slot_two.slot == 2);
  CHECK(slot_one.slot == 1);
  const auto into_two = plan.transfers_into(slot_two);
  REQUIRE(into_two.size() == 3);
  CHECK(same(into_two[0].transfer, round.transfers[0]));
  CHECK(same(into_two[1].transfer, round.transfers[2]));
  CHECK(same(into_two[2].transfer, round.transfers[4]));
  const auto into_one = plan.transfers_into(slot_one);
  REQUIRE(into_one.size() == 2);
  CHECK(same(into_one[0].transfer, round.transfers[3]));
  CHECK(same(into_one[1].transfer, round.transfers[5]));

  CHECK(sources(plan, 0) == std::vector<int>{3, 1, 2});
  CHECK(sources(plan, 2) == std::vector<int>{1});
  CHECK(sources(plan, 1).empty());
  CHECK(plan.destinations_of(1).empty());
  // Grouped by receiver: rank 0's two destinations come before rank 2's one.
  REQUIRE(plan.destinations().size() == 3);
  CHECK(plan.destinations()[2].rank == 2);
}

TEST_CASE("A destination that completes is flagged, and divides by the rank count only for avg") {
  Round round;
  round.transfers = {reduce(1, 0, 0), reduce(2, 0, 0, true), reduce(0, 1, 1)};
  for (ReduceOp op : {ReduceOp::sum, ReduceOp::prod, ReduceOp::max, ReduceOp::min, ReduceOp::avg}) {
    RoundPlanner planner;
    const RoundPlan& plan = planner.plan(round, shape_with(3, op));
    const PlannedDestination& completed = plan.destinations_of(0)[0];
    const PlannedDestination& partial = plan.destinations_of(1)[0];
    CHECK(completed.completes);
    CHECK(completed.divides_by_ranks == (op == ReduceOp::avg));
    CHECK_FALSE(partial.completes);
    CHECK_FALSE(partial.divides_by_ranks);
  }
}

TEST_CASE("Planning a small round after a big one leaves nothing of the big one in the plan") {
  const Config config = ConfigBuilder().ranks(6).count(60);
  const CollectiveShape shape = shape_of(config);
  Round big;
  for (int dst = 0; dst < 6; ++dst)
    for (int src = 0; src < 6; ++src)
      if (src != dst) big.transfers.push_back(reduce(src, dst, (src + dst) % 6));
  big.transfers.push_back(copy(0, 1, 0));  // rank 0's slot 0 is also written: staged
  Round small;
  small.transfers = {copy(4, 5, 3)};

  RoundPlanner planner;
  const RoundPlan& first = planner.plan(big, shape);
  CHECK(first.destinations().size() > 6);
  CHECK_FALSE(first.staged_reads().empty());

  const RoundPlan& plan = planner.plan(small, shape);
  REQUIRE(plan.destinations().size() == 1);
  CHECK(plan.destinations()[0].rank == 5);
  CHECK(plan.destinations()[0].slot == 3);
  REQUIRE(plan.transfers_into(plan.destinations()[0]).size() == 1);
  CHECK(same(plan.transfers_into(plan.destinations()[0])[0].transfer, small.transfers[0]));
  CHECK(plan.staged_reads().empty());
  for (int rank = 0; rank < 6; ++rank) {
    CHECK(plan.destinations_of(rank).size() == (rank == 5 ? 1u : 0u));
    CHECK(sources(plan, rank) == (rank == 5 ? std::vector<int>{4} : std::vector<int>{}));
  }

  // And planning the big round again gives the same plan as the first time.
  RoundPlanner fresh;
  const RoundPlan& expected = fresh.plan(big, shape);
  const RoundPlan& again = planner.plan(big, shape);
  REQUIRE(again.destinations().size() == expected.destinations().size());
  CHECK(again.staged_reads().size() == expected.staged_reads().size());
  for (int rank = 0; rank < 6; ++rank) CHECK(sources(again, rank) == sources(expected, rank));
}

TEST_CASE("Planning the rounds of a collective a second time allocates nothing") {
  for (Algorithm algorithm : {Algorithm::ring, Algorithm::direct, Algorithm::rhd, Algorithm::tree}) {
    const Config config = ConfigBuilder().ranks(8).count(64).algorithm(algorithm);
    const Schedule schedule = make_schedule(config);
    const CollectiveShape shape = shape_of(config);
    RoundPlanner planner;
    for (const Round& round : schedule.rounds) planner.plan(round, shape);
    allocations = 0;
    counting_allocations = true;
    for (const Round& round : schedule.rounds) planner.plan(round, shape);
    counting_allocations = false;
    INFO(algorithm_name(algorithm));
    CHECK(allocations == 0);
  }
}

TEST_CASE("A shape with fewer ranks after a bigger one is planned against its own size") {
  RoundPlanner planner;
  Round wide;
  wide.transfers = {copy(7, 6, 5)};
  planner.plan(wide, shape_with(8));
  Round narrow;
  narrow.transfers = {copy(1, 0, 1)};
  const RoundPlan& plan = planner.plan(narrow, shape_with(2));
  CHECK(plan.ranks() == 2);
  REQUIRE(plan.destinations().size() == 1);
  CHECK(sources(plan, 0) == std::vector<int>{1});
}

TEST_CASE("A transfer outside the shape is refused instead of planned") {
  Round round;
  round.transfers = {copy(0, 4, 0)};
  RoundPlanner planner;
  CHECK_THROWS_AS(planner.plan(round, shape_with(4)), std::invalid_argument);
  round.transfers = {copy(0, 1, 4)};
  CHECK_THROWS_AS(planner.plan(round, shape_with(4)), std::invalid_argument);
}

}  // namespace
}  // namespace ringviz
