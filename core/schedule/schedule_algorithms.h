#pragma once
// The schedules beyond the ring, one file each (schedule_naive.cpp, schedule_direct.cpp,
// schedule_rhd.cpp, schedule_tree.cpp). make_schedule() in schedule.cpp dispatches here.
//
// Every builder works on the N-slot working buffer (docs/architecture.md, "Collective
// semantics") and fills Schedule::owned_slot. Several transfers may land in one (rank, slot)
// in a round: the round planner (core/schedule/round_plan.h) has every backend fold them in list
// order, so the order in which a builder appends them is the summation order, and the
// transfer that folds in the last missing contribution of a slot is marked `completes_slot`
// (avg divides there, once).
#include "core/model/config.h"
#include "core/schedule/rounds.h"

namespace ringviz {

// naive: every GPU sends its whole buffer to GPU 0, which reduces and sends the result back.
Schedule make_naive_schedule(const Config& config);
// direct: every pair exchanges at once (AllGather: each block to all; ReduceScatter: slot j
// to GPU j; AllReduce: both, one round each).
Schedule make_direct_schedule(const Config& config);
// rhd: recursive halving (ReduceScatter), recursive doubling (AllGather), Rabenseifner's
// AllReduce (halving then doubling); when N is not a power of two the first 2(N - p) ranks
// pair up, the even one folds into the odd one first and gets the result back at the end.
Schedule make_rhd_schedule(const Config& config);
// tree: AllReduce as a reduce up the binary tree rooted at GPU 0 (children of r: 2r+1, 2r+2)
// and a broadcast down it. Unpipelined, every hop moves the whole buffer; pipelined, every hop
// moves one slot per round and slot s + 1 follows one round behind slot s.
Schedule make_tree_schedule(const Config& config, bool pipelined);

namespace schedule_steps {

// The two primitives every schedule is written in: the receiver folds (reduce) or stores
// (copy) the sender's slot as it was before the round.
inline void send_reduce(Round& round, int src, int dst, int slot, bool completes = false) {
  round.transfers.push_back({src, dst, slot, TransferKind::reduce, completes, {}});
}
inline void send_copy(Round& round, int src, int dst, int slot) {
  round.transfers.push_back({src, dst, slot, TransferKind::copy, false, {}});
}

// Rank r owns slot r at the end (ReduceScatter) or contributes block r (AllGather).
inline std::vector<int> identity_owners(int ranks) {
  std::vector<int> owners(static_cast<std::size_t>(ranks));
  for (int rank = 0; rank < ranks; ++rank) owners[static_cast<std::size_t>(rank)] = rank;
  return owners;
}

}  // namespace schedule_steps

}  // namespace ringviz
