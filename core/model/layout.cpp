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

SlotLayout make_layout(const Config& config) {
  if (!uneven_all_to_all(config)) return make_layout(config.op, config.ranks, config.count);
  SlotLayout layout;
  layout.slots.reserve(config.splits.size());
  std::int64_t offset = 0;
  for (std::int64_t block : config.splits) {
    layout.slots.push_back({offset, block});
    offset += block;
  }
  layout.elements_per_rank = offset;
  return layout;
}

std::int64_t input_offset(const Config& config, const SlotLayout& layout, int rank) {
  if (config.op == Op::allgather) return layout[rank].offset;
  if (uneven_all_to_all(config)) return layout[pair_slot(config.ranks, rank, 0)].offset;
  return 0;
}

}  // namespace ringviz
