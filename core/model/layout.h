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
// no part (the buffer holds the blocks alone). AllToAll with uneven splits (Config::splits):
// N x N slots, slot s * N + d the block GPU s sends to GPU d, on every GPU, so a transfer keeps
// its slot; GPU r starts with its row (its input, in order) and ends with its column (what it
// received, in sender order: all_to_all_single's output). The other blocks stay empty on it.
struct SlotLayout {
  std::vector<Slot> slots;
  std::int64_t elements_per_rank = 0;

  int size() const { return static_cast<int>(slots.size()); }
  const Slot& operator[](int slot) const { return slots[static_cast<std::size_t>(slot)]; }
};

SlotLayout make_layout(Op op, int ranks, std::int64_t count);
SlotLayout make_layout(const Config& config);

// Slots in every rank's working buffer: N, or N x N for an uneven AllToAll.
inline int slot_count(const Config& config) {
  return uneven_all_to_all(config) ? config.ranks * config.ranks : config.ranks;
}
// Where rank `rank`'s input starts in its working buffer: AllGather's slot r, an uneven
// AllToAll's row r, the buffer's start otherwise.
std::int64_t input_offset(const Config& config, const SlotLayout& layout, int rank);
// An uneven AllToAll's slot for the block GPU `sender` sends to GPU `receiver`.
inline int pair_slot(int ranks, int sender, int receiver) { return sender * ranks + receiver; }

}  // namespace ringviz
