// tree: AllReduce over a binary tree rooted at GPU 0, numbered like a heap (the parent of r is
// (r - 1) / 2, its children 2r + 1 and 2r + 2). A reduce climbs the tree, a broadcast comes
// back down. Only about 2·log2 N hops, so few messages; but a parent takes in two children's
// data over one link, and the leaves' links sit idle most of the time.
#include "core/schedule/schedule_algorithms.h"

namespace ringviz {

using namespace schedule_steps;

namespace {

int depth_of(int rank) {
  int depth = 0;
  for (int r = rank + 1; r > 1; r /= 2) ++depth;
  return depth;
}

// The slot-s transfer from `child` into the root completes slot s when no later child of the
// root sends it (the root folds child 1, then child 2).
bool completes_at_root(int child, int ranks) {
  const int parent = (child - 1) / 2;
  return parent == 0 && (child == 2 || ranks == 2);
}

}  // namespace

Schedule make_tree_schedule(const Config& config, bool pipelined) {
  const int n = config.ranks;
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  if (n == 1) return schedule;
  const int deepest = depth_of(n - 1);

  if (!pipelined) {
    // step 0 .. D-1: the GPUs at depth D - step fold their whole buffer into their parent.
    for (int depth = deepest; depth >= 1; --depth) {
      Round round{Phase::reduce_scatter, {}};
      for (int rank = 1; rank < n; ++rank)
        if (depth_of(rank) == depth)
          for (int slot = 0; slot < n; ++slot)
            send_reduce(round, rank, (rank - 1) / 2, slot, completes_at_root(rank, n));
      schedule.rounds.push_back(std::move(round));
    }
    // step D .. 2D-1: the GPUs at depth step - D copy the whole result to their children.
    for (int depth = 0; depth < deepest; ++depth) {
      Round round{Phase::all_gather, {}};
      for (int rank = 1; rank < n; ++rank)
        if (depth_of((rank - 1) / 2) == depth)
          for (int slot = 0; slot < n; ++slot) send_copy(round, (rank - 1) / 2, rank, slot);
      schedule.rounds.push_back(std::move(round));
    }
    return schedule;
  }

  // Pipelined reduce, D + N - 1 rounds: at round t a GPU at depth d pushes slot t - (D - d) to
  // its parent. Its children pushed that slot one round earlier, so it is already folded in,
  // and this round they push the next slot, which it is not sending.
  const int rounds = deepest + n - 1;
  for (int t = 0; t < rounds; ++t) {
    Round round{Phase::reduce_scatter, {}};
    for (int rank = 1; rank < n; ++rank) {
      const int slot = t - (deepest - depth_of(rank));
      if (slot >= 0 && slot < n)
        send_reduce(round, rank, (rank - 1) / 2, slot, completes_at_root(rank, n));
    }
    schedule.rounds.push_back(std::move(round));
  }
  // Pipelined broadcast, D + N - 1 rounds: at round t a GPU at depth d copies slot t - d to
  // its children, the slot its parent copied to it one round earlier.
  for (int t = 0; t < rounds; ++t) {
    Round round{Phase::all_gather, {}};
    for (int rank = 1; rank < n; ++rank) {
      const int parent = (rank - 1) / 2;
      const int slot = t - depth_of(parent);
      if (slot >= 0 && slot < n) send_copy(round, parent, rank, slot);
    }
    schedule.rounds.push_back(std::move(round));
  }
  return schedule;
}

}  // namespace ringviz
