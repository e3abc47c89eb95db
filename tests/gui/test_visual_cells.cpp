// The visual cell format of core/teaching/visual_cells.h, which the shader (and later a CUDA kernel)
// relies on word for word.
#include <doctest/doctest.h>

#include <cmath>

#include "core/engine/backend.h"
#include "core/engine/session.h"
#include "core/algorithms/registry.h"
#include "core/teaching/visual_cells.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;

namespace {

VisualCells cells_after(const Config& config, int round, ValueRange range = {0, 100}) {
  Session session(config, make_cpu_backend(1));
  session.seek(round);
  VisualCells cells;
  fill_visual_cells(config, session.layout(), session.schedule(), round, session.buffers(), session.provenance(),
                    range, cells);
  return cells;
}

Config config_of(Op op, int ranks, std::int64_t count) {
  return ConfigBuilder().op(op).ranks(ranks).count(count);
}

int stale_cells(const VisualCells& cells) {
  int stale = 0;
  for (int r = 0; r < cells.ranks; ++r)
    for (int s = 0; s < cells.ranks; ++s) stale += (cells.flags(r, s) & kCellStale) ? 1 : 0;
  return stale;
}

}  // namespace

TEST_CASE("after round 1 of AllGather on 4 GPUs GPU 0 holds blocks 0 and 3 and two empty slots") {
  const Config config = ConfigBuilder().op(Op::allgather).ranks(4);
  const VisualCells cells = cells_after(config, 1);
  REQUIRE(cells.cells.size() == 4u * 4u * kCellWords);
  const std::uint32_t* slot3 = cells.cell(0, 3);
  CHECK(slot3[0] == (1u << 3));  // only GPU 3's bit
  CHECK(slot3[8] == 1u);
  CHECK(slot3[11] == 3u);
  CHECK((cells.flags(0, 1) & kCellEmpty) != 0);
  CHECK((cells.flags(0, 2) & kCellEmpty) != 0);
  CHECK(cells.cell(0, 1)[11] == kNoContributor);
  CHECK((cells.flags(0, 0) & kCellEmpty) == 0);
}

TEST_CASE("the contributor mask of a 40-GPU sum spans two words in rank order") {
  const Config config = ConfigBuilder().op(Op::reducescatter).ranks(40).count(40);
  const VisualCells cells = cells_after(config, 39);
  // Every GPU owns one complete slot at the end of ReduceScatter.
  int complete = 0;
  for (int r = 0; r < 40; ++r)
    for (int s = 0; s < 40; ++s)
      if (cells.flags(r, s) & kCellComplete) {
        ++complete;
        CHECK(cells.cell(r, s)[0] == 0xFFFFFFFFu);
        CHECK(cells.cell(r, s)[1] == 0xFFu);
        CHECK(cells.cell(r, s)[8] == 40u);
        CHECK((cells.flags(r, s) & kCellOwned) != 0);
      }
  CHECK(complete == 40);
}

TEST_CASE("partial sums become stale once the reduce-scatter pass is over") {
  const Config config = ConfigBuilder().op(Op::reducescatter).ranks(4);
  SUBCASE("not before") { CHECK(stale_cells(cells_after(config, 2)) == 0); }
  SUBCASE("at the end, every slot but the owned one") { CHECK(stale_cells(cells_after(config, 3)) == 12); }
}

TEST_CASE("the reduce-scatter pass ends where the schedule says, not after ranks - 1 rounds") {
  Config config = ConfigBuilder().op(Op::allreduce).ranks(4);
  SUBCASE("rhd on 4 GPUs halves twice: its leftovers are stale after round 2") {
    config.algorithm = Algorithm::rhd;
    CHECK(reduce_scatter_rounds(make_schedule(config)) == 2);
    CHECK(stale_cells(cells_after(config, 1)) == 0);
    CHECK(stale_cells(cells_after(config, 2)) == 12);
  }
  SUBCASE("naive reduces in one round: every GPU but 0 keeps only stale inputs") {
    config.algorithm = Algorithm::naive;
    CHECK(reduce_scatter_rounds(make_schedule(config)) == 1);
    CHECK(stale_cells(cells_after(config, 0)) == 0);
    CHECK(stale_cells(cells_after(config, 1)) == 12);
  }
  SUBCASE("AllGather has no reduce-scatter pass") {
    config.op = Op::allgather;
    CHECK(reduce_scatter_rounds(make_schedule(config)) == 0);
  }
}

TEST_CASE("bins average their elements and normalise against the given range") {
  // init seed, count 4: GPU 0 = 1 2 3 4, GPU 1 = 5 6 7 8; slots of 2 elements
  const Config config = ConfigBuilder().op(Op::allreduce).ranks(2).count(4);
  const VisualCells cells = cells_after(config, 0, {0, 10});
  REQUIRE(cells.bins_per_slot == 2);
  CHECK(cells.cell(0, 1)[10] == 2u);
  CHECK(cells.bin(0, 1, 0, 0) == doctest::Approx(3.0));
  CHECK(cells.bin(0, 1, 1, 1) == doctest::Approx(0.4));
  CHECK(cells.bin(1, 0, 0, 1) == doctest::Approx(0.5));
}

TEST_CASE("big slots are binned within the budget, every element in exactly one bin") {
  const Config config = config_of(Op::allreduce, 4, 1000003);
  Session session(config, make_cpu_backend(1));
  const int bins = bins_per_slot_for(session.layout(), 4);
  CHECK(bins <= kVisualBinBudget / 16);
  CHECK(bins >= 1);
  const VisualCells cells = cells_after(config, 0, {0, 4000000});
  CHECK(cells.bins.size() == 16u * static_cast<std::size_t>(bins) * 2u);
  // The seed input rises along the buffer, so the bin means do too.
  CHECK(cells.bin(0, 0, 0, 0) < cells.bin(0, 0, bins - 1, 0));
}

TEST_CASE("value_range skips empty slots and NaN, and a flat range normalises to one half") {
  const Config config = config_of(Op::allgather, 3, 2);
  Session session(config, make_cpu_backend(1));
  const ValueRange range = value_range(session.buffers(), session.provenance(), session.layout());
  CHECK(range.lo == doctest::Approx(1.0));
  CHECK(range.hi == doctest::Approx(6.0));
  const Config flat = ConfigBuilder(config).init(InitKind::rank).ranks(1);
  const VisualCells cells = cells_after(flat, 0, {3, 3});
  CHECK(cells.bin(0, 0, 0, 1) == doctest::Approx(0.5));
}
