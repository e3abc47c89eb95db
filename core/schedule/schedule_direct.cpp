// direct: every pair of GPUs talks at once. One round per pass, N - 1 messages per GPU per
// round; each message is small, so latency (one α per message) dominates at large N.
#include "core/schedule/schedule_algorithms.h"

namespace ringviz {

using namespace schedule_steps;

namespace {

// Every GPU r sends slot j straight to GPU j, which folds the N - 1 arrivals in sender order;
// the last sender other than j completes slot j.
Round direct_reduce_scatter(int n) {
  Round round{Phase::reduce_scatter, {}};
  for (int src = 0; src < n; ++src)
    for (int dst = 0; dst < n; ++dst) {
      if (dst == src) continue;
      const int last_sender = dst == n - 1 ? n - 2 : n - 1;
      send_reduce(round, src, dst, dst, src == last_sender);
    }
  return round;
}

// Every GPU r sends its slot r (its block, or the slot it reduced) to every other GPU.
Round direct_all_gather(int n) {
  Round round{Phase::all_gather, {}};
  for (int src = 0; src < n; ++src)
    for (int dst = 0; dst < n; ++dst)
      if (dst != src) send_copy(round, src, dst, src);
  return round;
}

}  // namespace

Schedule make_direct_schedule(const Config& config) {
  const int n = config.ranks;
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  if (n == 1) return schedule;
  if (config.op != Op::allgather) schedule.rounds.push_back(direct_reduce_scatter(n));
  if (config.op != Op::reducescatter) schedule.rounds.push_back(direct_all_gather(n));
  return schedule;
}

}  // namespace ringviz
