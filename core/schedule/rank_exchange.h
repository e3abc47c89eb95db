#pragma once
// One rank's part of a planned round, for transports that run each rank in its own process
// (`ringviz capture`; docs/architecture.md, "The NCCL transport"): what this rank sends
// to whom and receives from whom. Both ends derive their lists from the same plan in the same
// order, so a library that pairs the k-th send from A to B with the k-th receive at B from A
// (NCCL's point-to-point calls) pairs every transfer with itself.
#include <vector>

#include "core/schedule/round_plan.h"

namespace ringviz {

struct ExchangeSend {
  int peer = 0;  // the receiver
  int slot = 0;  // the receiver's slot
  int source_slot = 0;  // the sender's own slot it reads (Transfer::source_slot)
  // Index into RoundPlan::staged_reads() when the slot must be sent from the copy taken
  // before the round; PlannedTransfer::kReadsLiveSlot otherwise.
  int staged_read = PlannedTransfer::kReadsLiveSlot;
};

struct ExchangeReceive {
  int peer = 0;  // the sender
  int slot = 0;
};

struct RankExchange {
  // Grouped by receiving rank (ascending), each group in that receiver's plan order.
  std::vector<ExchangeSend> sends;
  // One per transfer into this rank, in the order a fold applies them: the destinations of
  // RoundPlan::destinations_of(rank), each with its transfers_into(). Receive i lands in
  // staging buffer i, and the fold takes the staging buffers in that same order.
  std::vector<ExchangeReceive> receives;
};

// Fills `exchange` (reusing its storage) with `rank`'s part of `plan`.
void plan_rank_exchange(const RoundPlan& plan, int rank, RankExchange& exchange);

}  // namespace ringviz
