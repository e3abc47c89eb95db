// Pipelined schedules (docs/architecture.md, "Pipelined schedules"): which steps make up each
// wave, and how slots are cut into pieces.
#include <doctest/doctest.h>

#include <set>
#include <tuple>

#include "core/schedule/pipeline.h"
#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

Config ring(Op op, int ranks, std::int64_t count, int channels, int slices) {
  return ConfigBuilder().op(op).ranks(ranks).count(count).channels(channels).slices(slices);
}

TEST_CASE("one channel and one slice leave the source article's rounds as they are") {
  const Config config = ring(Op::allreduce, 5, 23, 1, 1);
  const Schedule rounds = make_lock_step_schedule(config);
  const Schedule same = make_schedule(config);
  REQUIRE(same.round_count() == rounds.round_count());
  for (int t = 0; t < rounds.round_count(); ++t) {
    const auto& expected = rounds.rounds[static_cast<std::size_t>(t)].transfers;
    const auto& got = same.rounds[static_cast<std::size_t>(t)].transfers;
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CHECK(got[i].slot == expected[i].slot);
      CHECK(got[i].step == PipelineStep{0, t, 0});
    }
  }
  CHECK(execution_schedule(same).rounds.size() == same.rounds.size());
}

TEST_CASE("wave w holds every channel's slice k of round w - k, once") {
  for (const Op op : {Op::allgather, Op::reducescatter, Op::allreduce}) {
    const Config config = ring(op, 4, 100, 3, 5);
    const Schedule rounds = make_lock_step_schedule(config);
    const Schedule waves = make_schedule(config);
    const int r = rounds.round_count();
    REQUIRE(waves.round_count() == r + 5 - 1);
    CHECK(lock_step_round_count(waves) == r);
    std::set<std::tuple<int, int, int, int>> seen;  // channel, round, slice, src
    for (int w = 0; w < waves.round_count(); ++w)
      for (const Transfer& transfer : waves.rounds[static_cast<std::size_t>(w)].transfers) {
        CHECK(transfer.step.round + transfer.step.slice == w);
        CHECK(waves.round_phases[static_cast<std::size_t>(transfer.step.round)] ==
              rounds.rounds[static_cast<std::size_t>(transfer.step.round)].phase);
        CHECK(seen.insert({transfer.step.channel, transfer.step.round, transfer.step.slice, transfer.src}).second);
      }
    CHECK(seen.size() == static_cast<std::size_t>(r * 4 * 3 * 5));
  }
}

TEST_CASE("pieces cut every slot into channels then slices, first pieces one element longer") {
  const Slot slot{10, 11};
  const PipelineShape shape{2, 3};  // channels of 6 and 5 elements; slices 2 2 2 and 2 2 1
  const Slot expected[] = {{10, 2}, {12, 2}, {14, 2}, {16, 2}, {18, 2}, {20, 1}};
  for (int piece = 0; piece < 6; ++piece) {
    CHECK(piece_span(slot, shape, piece).offset == expected[piece].offset);
    CHECK(piece_span(slot, shape, piece).count == expected[piece].count);
  }
  // Fewer elements than pieces: the last pieces are empty but still placed.
  const Slot tiny = piece_span({4, 2}, PipelineShape{4, 1}, 3);
  CHECK(tiny.count == 0);
  CHECK(tiny.offset == 6);
}

TEST_CASE("the execution schedule gives every piece its own slot over the same elements") {
  const Config config = ring(Op::reducescatter, 3, 17, 2, 2);
  const Schedule waves = make_schedule(config);
  const SlotLayout layout = make_layout(config);
  const PipelineShape shape{2, 2};
  const SlotLayout pieces = piece_layout(layout, shape);
  REQUIRE(pieces.size() == 3 * 4);
  CHECK(pieces.elements_per_rank == layout.elements_per_rank);
  const Schedule execution = execution_schedule(waves);
  for (std::size_t w = 0; w < waves.rounds.size(); ++w)
    for (std::size_t i = 0; i < waves.rounds[w].transfers.size(); ++i) {
      const Slot span = transfer_span(waves.rounds[w].transfers[i], layout, shape);
      const Slot& piece = pieces[execution.rounds[w].transfers[i].slot];
      CHECK(span.offset == piece.offset);
      CHECK(span.count == piece.count);
    }
}

TEST_CASE("too many pipelined transfers are refused naming --slices") {
  Config config = ring(Op::allreduce, 256, 1024, 32, 64);
  CHECK_THROWS_WITH_AS(make_schedule(config), doctest::Contains("choose fewer --slices"), InputError);
  config.slices = 65;
  CHECK(validate(config).value_or("").find("slices: 65 is out of range (1 to 64)") == 0);
}

}  // namespace
}  // namespace ringviz
