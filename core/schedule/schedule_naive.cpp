// naive: the first idea anyone has. Every GPU ships its whole buffer to GPU 0, GPU 0 does all
// the reducing, then ships the result back. Two rounds, but GPU 0's link carries N - 1
// buffers each way: the hot spot the ring removes.
#include "core/schedule/schedule_algorithms.h"

namespace ringviz {

using namespace schedule_steps;

Schedule make_naive_schedule(const Config& config) {
  const int n = config.ranks;
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  if (n == 1) return schedule;

  if (config.op == Op::allgather) {
    // step 0: every GPU hands its block to GPU 0.
    Round gather{Phase::all_gather, {}};
    for (int rank = 1; rank < n; ++rank) send_copy(gather, rank, 0, rank);
    // step 1: GPU 0 hands every GPU the blocks it does not have yet.
    Round scatter{Phase::all_gather, {}};
    for (int rank = 1; rank < n; ++rank)
      for (int slot = 0; slot < n; ++slot)
        if (slot != rank) send_copy(scatter, 0, rank, slot);
    schedule.rounds = {std::move(gather), std::move(scatter)};
    return schedule;
  }

  // step 0: every GPU pushes every slot to GPU 0, which folds them in rank order
  // (a0, then b0 + a0, then c0 + (b0 + a0) ...); GPU N - 1's slot is the last one missing.
  Round reduce{Phase::reduce_scatter, {}};
  for (int rank = 1; rank < n; ++rank)
    for (int slot = 0; slot < n; ++slot) send_reduce(reduce, rank, 0, slot, rank == n - 1);
  schedule.rounds.push_back(std::move(reduce));

  // step 1: GPU 0 sends the result back: every slot (AllReduce) or slot r to GPU r
  // (ReduceScatter, which is still part of the reduce-scatter).
  const bool all = config.op == Op::allreduce;
  Round back{all ? Phase::all_gather : Phase::reduce_scatter, {}};
  for (int rank = 1; rank < n; ++rank)
    for (int slot = 0; slot < n; ++slot)
      if (all || slot == rank) send_copy(back, 0, rank, slot);
  schedule.rounds.push_back(std::move(back));
  return schedule;
}

}  // namespace ringviz
