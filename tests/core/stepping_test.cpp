// Stepping in both directions (docs/architecture.md, "Collective semantics": bit-identical after
// every round): long random walks of step, back, seek and reset must always show exactly what a
// fresh replay from the inputs shows for that round, buffers and provenance alike.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/engine/backend.h"
#include "core/input/initial_values.h"
#include "core/engine/session.h"
#include "tests/core/reference.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

// What every round looks like when replayed once from the inputs on a fresh backend, with
// no session, no snapshots and no stepping back.
struct Replay {
  std::vector<BufferState> buffers;     // [round]: 0 = the inputs
  std::vector<Provenance> provenance;
};

Replay replay_from_start(const Config& config) {
  const Schedule schedule = make_schedule(config);
  BufferState state = make_initial_state(config);
  auto backend = make_cpu_backend(1);
  backend->load({config.dtype, config.reduce, config.ranks, make_layout(config)}, state);
  Replay replay;
  replay.buffers.push_back(state);
  replay.provenance.push_back(Provenance::initial(config));
  for (const Round& round : schedule.rounds) {
    backend->execute(round);
    backend->fetch(state);
    replay.buffers.push_back(state);
    Provenance next = replay.provenance.back();
    next.apply(round);
    replay.provenance.push_back(std::move(next));
  }
  return replay;
}

// Moves are drawn from splitmix64 (the same on every platform, unlike std distributions).
void random_walk(const Config& config, SessionOptions options, std::uint64_t seed, bool expect_replay) {
  INFO(test::describe(config));
  const Replay replay = replay_from_start(config);
  Session session(config, make_cpu_backend(2), options);
  // The small-budget case must really rebuild rounds from an earlier snapshot.
  CHECK((session.snapshot_interval() > 1) == expect_replay);
  const int last = session.round_count();
  int expected_round = 0;
  int mismatches = 0;
  std::string first_mismatch;
  for (std::uint64_t move = 0; move < 10'000; ++move) {
    const std::uint64_t draw = splitmix64_at(seed, move);
    std::string name;
    switch (draw % 8) {
      case 0: case 1: case 2:
        session.step_forward();
        expected_round = std::min(expected_round + 1, last);
        name = "step";
        break;
      case 3: case 4:
        session.step_back();
        expected_round = std::max(expected_round - 1, 0);
        name = "back";
        break;
      case 5: case 6: {
        // Targets a little outside [0, last] check the clamping too.
        const int target = static_cast<int>((draw >> 8) % static_cast<std::uint64_t>(last + 5)) - 2;
        session.seek(target);
        expected_round = std::clamp(target, 0, last);
        name = "seek " + std::to_string(target);
        break;
      }
      default:
        session.reset();
        expected_round = 0;
        name = "reset";
    }
    const bool same = session.round() == expected_round &&
                      session.buffers() == replay.buffers[static_cast<std::size_t>(expected_round)] &&
                      session.provenance() == replay.provenance[static_cast<std::size_t>(expected_round)];
    if (!same && mismatches++ == 0)
      first_mismatch = "move " + std::to_string(move) + " (" + name + ") at round " +
                       std::to_string(session.round());
  }
  CHECK(first_mismatch == "");
  CHECK(mismatches == 0);
  // After all that, the result is the one a session that only ever stepped forward gives.
  session.seek(last);
  Session straight(config, make_cpu_backend(1));
  straight.seek(last);
  const test::Difference difference =
      test::first_difference(config.dtype, session.outputs(), straight.outputs());
  CHECK(difference.actual == difference.expected);
}

Config walk_config(Op op, Order order, int ranks, std::int64_t count, DType dtype, ReduceOp reduce) {
  return ConfigBuilder().op(op).order(order).ranks(ranks).count(count).dtype(dtype).reduce(reduce)
      .random_init(99);
}

TEST_CASE("Ten thousand random moves always show the round a fresh replay shows") {
  SUBCASE("AllReduce, seed order, f16 avg, uneven slots") {
    random_walk(walk_config(Op::allreduce, Order::seed, 5, 23, DType::f16, ReduceOp::avg), {}, 1, false);
  }
  SUBCASE("ReduceScatter, nccl order, f32 sum") {
    random_walk(walk_config(Op::reducescatter, Order::nccl, 7, 40, DType::f32, ReduceOp::sum), {}, 2, false);
  }
  SUBCASE("AllGather, i64") {
    random_walk(walk_config(Op::allgather, Order::seed, 4, 6, DType::i64, ReduceOp::max), {}, 3, false);
  }
  SUBCASE("AllReduce with a snapshot budget so small that most rounds are rebuilt by replay") {
    // 6 ranks x 50 bf16 = 600 bytes per state, 10 rounds: a 1500-byte budget keeps a
    // snapshot every fourth round only.
    random_walk(walk_config(Op::allreduce, Order::nccl, 6, 50, DType::bf16, ReduceOp::sum),
                SessionOptions{1500}, 4, true);
  }
  SUBCASE("AllReduce with no snapshot budget at all: everything replays from the inputs") {
    random_walk(walk_config(Op::allreduce, Order::seed, 3, 17, DType::i32, ReduceOp::prod),
                SessionOptions{0}, 5, true);
  }
}

TEST_CASE("A Session given a plan steps the plan's schedule, and a plan refuses what a Session refuses") {
  const Config config = ConfigBuilder().ranks(5).count(13).slices(2).channels(3);
  CollectivePlan plan(config);
  const std::size_t transfers = plan.schedule().rounds.front().transfers.size();
  const int rounds = plan.schedule().round_count();
  Session planned(std::move(plan), make_cpu_backend(1));
  Session built(config, make_cpu_backend(1));
  REQUIRE(planned.round_count() == rounds);
  CHECK(planned.schedule().rounds.front().transfers.size() == transfers);
  planned.seek(planned.round_count());
  built.seek(built.round_count());
  CHECK(planned.outputs() == built.outputs());

  CHECK_THROWS_AS(CollectivePlan{ConfigBuilder().ranks(0)}, InputError);
}

}  // namespace
}  // namespace ringviz
