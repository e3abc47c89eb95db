#pragma once
#include <cstdint>
#include <vector>

#include "core/model/config.h"

namespace ringviz {

// A contiguous run of elements inside one rank's working buffer.
struct Slot {
  std::int64_t offset = 0;
  std::int64_t count = 0;
};

// Every rank's working buffer is N slots (docs/architecture.md, "Collective semantics"). AllGather:
// each slot holds one rank's whole input. ReduceScatter/AllReduce: the input is cut into N slots,
// the first count % N of them one element longer; slots may be empty when count < N. AllToAll:
// N blocks of count / N elements, block j meant for GPU j; the count % N elements left over take
// no part (the buffer holds the blocks alone).
struct SlotLayout {
  std::vector<Slot> slots;
  std::int64_t elements_per_rank = 0;

  int size() const { return static_cast<int>(slots.size()); }
  const Slot& operator[](int slot) const { return slots[static_cast<std::size_t>(slot)]; }
};

SlotLayout make_layout(Op op, int ranks, std::int64_t count);
inline SlotLayout make_layout(const Config& config) {
  return make_layout(config.op, config.ranks, config.count);
}

}  // namespace ringviz
