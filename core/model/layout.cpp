#include "core/model/layout.h"

namespace ringviz {

SlotLayout make_layout(Op op, int ranks, std::int64_t count) {
  SlotLayout layout;
  layout.slots.resize(static_cast<std::size_t>(ranks));
  std::int64_t offset = 0;
  for (int slot = 0; slot < ranks; ++slot) {
    const std::int64_t size =
        op == Op::allgather ? count : count / ranks + (slot < count % ranks ? 1 : 0);
    layout.slots[static_cast<std::size_t>(slot)] = {offset, size};
    offset += size;
  }
  layout.elements_per_rank = offset;
  return layout;
}

}  // namespace ringviz
