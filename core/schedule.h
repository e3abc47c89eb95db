#pragma once
#include <string_view>
#include <vector>

#include "core/config.h"

namespace ringviz {

enum class Phase { reduce_scatter, all_gather };
// copy: the receiver stores the incoming slot. reduce: it stores incoming (+) local.
enum class TransferKind { copy, reduce };

std::string_view phase_name(Phase phase);            // "reduce-scatter" | "all-gather"
std::string_view transfer_kind_name(TransferKind kind);  // "copy" | "reduce"

struct Transfer {
  int src = 0;
  int dst = 0;
  int slot = 0;
  TransferKind kind = TransferKind::copy;
  // This reduce folds in the last missing contribution: avg divides the slot by N here.
  bool completes_slot = false;
};

// All transfers of a round happen at once: every receiver sees the sender's slot as it was
// before the round began.
struct Round {
  Phase phase = Phase::reduce_scatter;
  std::vector<Transfer> transfers;
};

struct Schedule {
  std::vector<Round> rounds;
  // ReduceScatter: the slot each rank holds fully reduced at the end. AllReduce: the slot it
  // owns between the two phases. AllGather: the slot it contributes.
  std::vector<int> owned_slot;

  int round_count() const { return static_cast<int>(rounds.size()); }
};

// Schedules are data: the CPU and CUDA backends, the trace printer and the GUI all walk the
// same list of rounds.
Schedule make_schedule(const Config& config);

// The slot rank `rank` holds fully reduced after a ring reduce-scatter pass (and so the shard
// of the optimizer state ZeRO gives it): the ring schedule's owned_slot, for any number of
// ranks, without building the schedule (docs/architecture.md, "Collective semantics").
int ring_owned_slot(Order order, int rank, int ranks);

}  // namespace ringviz
