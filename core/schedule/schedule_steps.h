#pragma once
// The two primitives every schedule is written in, shared by the algorithms' units
// (core/algorithms/). Every builder works on the N-slot working buffer (docs/architecture.md,
// "Collective semantics") and fills Schedule::owned_slot. Several transfers may land in one
// (rank, slot) in a round: the round planner (core/schedule/round_plan.h) has every backend
// fold them in list order, so the order in which a builder appends them is the summation
// order, and the transfer that folds in the last missing contribution of a slot is marked
// `completes_slot` (avg divides there, once).
#include <vector>

#include "core/schedule/rounds.h"

namespace ringviz {

namespace schedule_steps {

// The two primitives every schedule is written in: the receiver folds (reduce) or stores
// (copy) the sender's slot as it was before the round.
inline void send_reduce(Round& round, int src, int dst, int slot, bool completes = false) {
  round.transfers.push_back({src, dst, slot, TransferKind::reduce, completes, {}});
}
inline void send_copy(Round& round, int src, int dst, int slot) {
  round.transfers.push_back({src, dst, slot, TransferKind::copy, false, {}});
}
// A copy from the sender's slot `src_slot` into the receiver's `dst_slot` (AllToAll).
inline void send_copy_between(Round& round, int src, int src_slot, int dst, int dst_slot) {
  round.transfers.push_back({src, dst, dst_slot, TransferKind::copy, false, {},
                             src_slot == dst_slot ? Transfer::kSameSlot : src_slot});
}

// Rank r owns slot r at the end (ReduceScatter) or contributes block r (AllGather).
inline std::vector<int> identity_owners(int ranks) {
  std::vector<int> owners(static_cast<std::size_t>(ranks));
  for (int rank = 0; rank < ranks; ++rank) owners[static_cast<std::size_t>(rank)] = rank;
  return owners;
}

}  // namespace schedule_steps

}  // namespace ringviz
