#include "core/schedule/schedule.h"

#include "core/schedule/pipeline.h"
#include "core/schedule/schedule_algorithms.h"

namespace ringviz {

namespace {

int wrap(int value, int ranks) { return ((value % ranks) + ranks) % ranks; }

// The first slot rank r sends in a reduce-scatter pass; at step t it sends (first - t), which
// is the partial sum it received at step t - 1.
int reduce_scatter_first_slot(Order order, int rank, int ranks) {
  return order == Order::seed ? rank : wrap(rank - 1, ranks);
}

// Ring reduce-scatter, N - 1 steps. Step t: every rank r pushes its partial sum of slot
// (first(r) - t) to r + 1, which folds it into its own copy of that slot.
void append_reduce_scatter_pass(const Config& config, Schedule& schedule) {
  const int n = config.ranks;
  for (int step = 0; step + 1 < n; ++step) {
    Round round{Phase::reduce_scatter, {}};
    for (int rank = 0; rank < n; ++rank) {
      const int slot = wrap(reduce_scatter_first_slot(config.order, rank, n) - step, n);
      round.transfers.push_back(
          {rank, (rank + 1) % n, slot, TransferKind::reduce, step + 2 == n, {}});
    }
    schedule.rounds.push_back(std::move(round));
  }
}

// Ring all-gather, N - 1 steps starting from the slot each rank owns. Step t: rank r forwards
// slot (owned(r) - t), the one it received at step t - 1 (its own at step 0).
void append_all_gather_pass(const Config& config, Schedule& schedule) {
  const int n = config.ranks;
  for (int step = 0; step + 1 < n; ++step) {
    Round round{Phase::all_gather, {}};
    for (int rank = 0; rank < n; ++rank) {
      const int slot = wrap(schedule.owned_slot[static_cast<std::size_t>(rank)] - step, n);
      round.transfers.push_back({rank, (rank + 1) % n, slot, TransferKind::copy, false, {}});
    }
    schedule.rounds.push_back(std::move(round));
  }
}

}  // namespace

static_assert(spellings_are_unique(kPhaseNames) && spellings_are_unique(kTransferKindNames));

int ring_owned_slot(Order order, int rank, int ranks) {
  // The last slot rank r receives in the reduce-scatter pass, at step N - 2 from rank r - 1,
  // is first(r - 1) - (N - 2). In seed order that is r + 1: the slot a rank starts sending
  // travels N - 1 hops and completes one rank before it. nccl shifts the start by one, so
  // rank r completes slot r.
  return wrap(reduce_scatter_first_slot(order, wrap(rank - 1, ranks), ranks) - (ranks - 2), ranks);
}

Schedule make_lock_step_schedule(const Config& config) {
  if (auto problem = unsupported_op_message(config.algorithm, config.op)) throw InputError(*problem);
  switch (config.algorithm) {
    case Algorithm::ring: break;
    case Algorithm::naive: return make_naive_schedule(config);
    case Algorithm::direct: return make_direct_schedule(config);
    case Algorithm::rhd: return make_rhd_schedule(config);
    case Algorithm::tree: return make_tree_schedule(config, false);
    case Algorithm::tree_pipelined: return make_tree_schedule(config, true);
  }
  Schedule schedule;
  const int n = config.ranks;
  schedule.owned_slot.resize(static_cast<std::size_t>(n));
  if (config.op == Op::allgather) {
    for (int rank = 0; rank < n; ++rank) schedule.owned_slot[static_cast<std::size_t>(rank)] = rank;
    append_all_gather_pass(config, schedule);
    return schedule;
  }
  for (int rank = 0; rank < n; ++rank)
    schedule.owned_slot[static_cast<std::size_t>(rank)] = ring_owned_slot(config.order, rank, n);
  append_reduce_scatter_pass(config, schedule);
  if (config.op == Op::allreduce) append_all_gather_pass(config, schedule);
  return schedule;
}

Schedule make_schedule(const Config& config) {
  const Schedule rounds = make_lock_step_schedule(config);
  std::int64_t transfers = 0;
  for (const Round& round : rounds.rounds) transfers += static_cast<std::int64_t>(round.transfers.size());
  const std::int64_t pipelined = transfers * config.channels * config.slices;
  if (pipelined > kMaxPipelinedTransfers)
    throw InputError("slices: " + std::to_string(config.slices) + " slices on " + std::to_string(config.channels) +
                     " channels make " + std::to_string(pipelined) + " transfers (at most " +
                     std::to_string(kMaxPipelinedTransfers) + "); choose fewer --slices, --channels or --gpus");
  return pipeline_schedule(rounds, {config.channels, config.slices});
}

}  // namespace ringviz
