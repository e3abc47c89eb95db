// Slot layout (docs/architecture.md, "Collective semantics"): N slots per rank, sizes
// floor(count/N) with the first count % N one longer; AllGather slots are whole inputs.
#include <doctest/doctest.h>

#include <string>

#include "core/model/layout.h"
#include "tests/core/reference.h"

namespace ringviz {
namespace {

// "offset:count" for every slot, e.g. "0:3 3:3 6:3 9:2".
std::string slots_text(const SlotLayout& layout) {
  std::string text;
  for (const Slot& slot : layout.slots)
    text += (text.empty() ? "" : " ") + std::to_string(slot.offset) + ":" + std::to_string(slot.count);
  return text;
}

TEST_CASE("An uneven count gives the first count % N slots one extra element") {
  const SlotLayout layout = make_layout(Op::allreduce, 4, 11);
  CHECK(slots_text(layout) == "0:3 3:3 6:3 9:2");
  CHECK(layout.elements_per_rank == 11);
}

TEST_CASE("A count smaller than N leaves the last slots empty") {
  const SlotLayout layout = make_layout(Op::reducescatter, 5, 3);
  CHECK(slots_text(layout) == "0:1 1:1 2:1 3:0 3:0");
  CHECK(layout.elements_per_rank == 3);
  CHECK(slots_text(make_layout(Op::allreduce, 3, 0)) == "0:0 0:0 0:0");
}

TEST_CASE("AllGather slots hold one whole input each, N x count per rank") {
  const SlotLayout layout = make_layout(Op::allgather, 3, 7);
  CHECK(slots_text(layout) == "0:7 7:7 14:7");
  CHECK(layout.elements_per_rank == 21);
}

TEST_CASE("Slots tile the buffer without gaps and match the semantics' sizes for every N and count") {
  for (int ranks = 1; ranks <= 40; ++ranks)
    for (std::int64_t count : {0, 1, 2, 7, 39, 40, 41, 101, 1000}) {
      INFO("N=", ranks, " count=", count);
      const SlotLayout layout = make_layout(Op::reducescatter, ranks, count);
      REQUIRE(layout.size() == ranks);
      const std::vector<std::int64_t> sizes = test::plain_slot_sizes(count, ranks);
      std::int64_t offset = 0;
      for (int slot = 0; slot < ranks; ++slot) {
        CHECK(layout[slot].offset == offset);
        CHECK(layout[slot].count == sizes[static_cast<std::size_t>(slot)]);
        offset += layout[slot].count;
      }
      CHECK(layout.elements_per_rank == count);
    }
}

}  // namespace
}  // namespace ringviz
