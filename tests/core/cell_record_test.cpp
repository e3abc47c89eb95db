// The packed cell record of core/teaching/cell_record.h: the shader reads it by word position, so the
// positions are pinned here as numbers, not as the constants they are checked against.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/engine/backend.h"
#include "core/teaching/cell_record.h"
#include "core/engine/session.h"
#include "core/teaching/visual_cells.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

TEST_CASE("A packed cell record puts the mask in texels 0 and 1 and count, flags, bins used, lowest rank in texel 2") {
  CellRecord record;
  for (int w = 0; w < kCellMaskWords; ++w) record.mask[w] = 0x100u + static_cast<std::uint32_t>(w);
  record.contributors = 21;
  record.flags = kCellComplete | kCellOwned;
  record.bins_used = 7;
  record.lowest_rank = 3;
  std::uint32_t words[kCellWords + 1];
  for (std::uint32_t& word : words) word = 0xDEADBEEFu;
  pack_cell_record(record, words);
  for (int w = 0; w < 8; ++w) CHECK(words[w] == 0x100u + static_cast<std::uint32_t>(w));
  CHECK(words[8] == 21u);
  CHECK(words[9] == (4u | 8u));
  CHECK(words[10] == 7u);
  CHECK(words[11] == 3u);
  CHECK(words[12] == 0xDEADBEEFu);  // a record is 12 words (3 RGBA32UI texels), no more
  CHECK(kCellWords == 12);
}

TEST_CASE("Bins are float pairs of value and normalised value, cell by cell in rank-major order") {
  CHECK(cell_index(2, 1, 4) == 9);
  CHECK(bin_float_index(9, 5, 3) == (9 * 5 + 3) * 2);
  CHECK(kBinValue == 0);
  CHECK(kBinNormalised == 1);
}

TEST_CASE("Cell records after a whole AllReduce show every rank folded in, the owned slot and the empty slots") {
  // 5 GPUs, 4 elements: fewer elements than ranks, so slot 4 has none
  const Config config = ConfigBuilder().op(Op::allreduce).ranks(5).count(4);
  Session session(config, make_cpu_backend(1));
  session.seek(session.round_count());
  std::vector<std::uint32_t> records{1, 2, 3};  // stale contents are replaced
  fill_cell_records(config, session.layout(), session.schedule(), session.round_count(),
                    session.provenance(), records);
  REQUIRE(records.size() == 5u * 5u * 12u);
  for (int rank = 0; rank < 5; ++rank)
    for (int slot = 0; slot < 5; ++slot) {
      const std::uint32_t* record = records.data() + (rank * 5 + slot) * 12;
      INFO("rank " << rank << ", slot " << slot);
      CHECK(record[0] == 0x1Fu);
      CHECK(record[8] == 5u);
      CHECK(record[11] == 0u);
      CHECK((record[9] & kCellComplete) != 0);
      CHECK(((record[9] & kCellOwned) != 0) ==
            (session.schedule().owned_slot[static_cast<std::size_t>(rank)] == slot));
      CHECK(((record[9] & kCellNoElements) != 0) == (slot == 4));
      CHECK(record[10] == (slot == 4 ? 0u : 1u));
    }
}

}  // namespace
}  // namespace ringviz
