#include "core/schedule/rank_exchange.h"

namespace ringviz {

void plan_rank_exchange(const RoundPlan& plan, int rank, RankExchange& exchange) {
  exchange.sends.clear();
  exchange.receives.clear();
  // Walking every destination in the plan's order visits each receiver's transfers in the
  // order that receiver walks them, which is what keeps the two ends paired.
  for (const PlannedDestination& destination : plan.destinations())
    for (const PlannedTransfer& planned : plan.transfers_into(destination))
      if (planned.transfer.src == rank)
        exchange.sends.push_back(
            {destination.rank, destination.slot, planned.transfer.source_slot(), planned.staged_read});
  for (const PlannedDestination& destination : plan.destinations_of(rank))
    for (const PlannedTransfer& planned : plan.transfers_into(destination))
      exchange.receives.push_back({planned.transfer.src, destination.slot});
}

}  // namespace ringviz
