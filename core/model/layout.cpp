#include "core/model/layout.h"

namespace ringviz {

SlotLayout make_layout(Op op, int ranks, std::int64_t count) {
  SlotLayout layout;
  layout.slots.resize(static_cast<std::size_t>(ranks));
  std::int64_t offset = 0;
  for (int slot = 0; slot < ranks; ++slot) {
    // AllToAll's blocks must all be one size, since GPU r's block j lands in GPU j's slot r:
    // count / N each, as nccl-tests sends (it rounds the count down to a multiple of N too);
    // the count % N elements left over take no part, and the buffer is the N blocks alone.
    const std::int64_t size = op == Op::allgather  ? count
                              : op == Op::alltoall ? count / ranks
                                                   : count / ranks + (slot < count % ranks ? 1 : 0);
    layout.slots[static_cast<std::size_t>(slot)] = {offset, size};
    offset += size;
  }
  layout.elements_per_rank = offset;
  return layout;
}

}  // namespace ringviz
