#include "core/schedule/schedule.h"

#include "core/schedule/rounds.h"

namespace ringviz {

static_assert(spellings_are_unique(kPhaseNames) && spellings_are_unique(kTransferKindNames));

int ring_reduce_scatter_first_slot(Order order, int rank, int ranks) {
  return order == Order::seed ? rank : wrap_rank(rank - 1, ranks);
}

int ring_owned_slot(Order order, int rank, int ranks) {
  // The last slot rank r receives in the reduce-scatter pass, at step N - 2 from rank r - 1,
  // is first(r - 1) - (N - 2). In seed order that is r + 1: the slot a rank starts sending
  // travels N - 1 hops and completes one rank before it. nccl shifts the start by one, so
  // rank r completes slot r.
  return wrap_rank(ring_reduce_scatter_first_slot(order, wrap_rank(rank - 1, ranks), ranks) - (ranks - 2), ranks);
}

}  // namespace ringviz
