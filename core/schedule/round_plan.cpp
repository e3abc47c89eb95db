#include "core/schedule/round_plan.h"

#include <stdexcept>
#include <string>

namespace ringviz {

namespace {

std::size_t index(int value) { return static_cast<std::size_t>(value); }

void require_inside(const Round& round, int ranks, int slots) {
  for (const Transfer& transfer : round.transfers)
    if (transfer.src < 0 || transfer.src >= ranks || transfer.dst < 0 || transfer.dst >= ranks ||
        transfer.slot < 0 || transfer.slot >= slots || transfer.source_slot() < 0 ||
        transfer.source_slot() >= slots)
      throw std::invalid_argument("round planner: a transfer names rank " +
                                  std::to_string(transfer.src) + " -> " +
                                  std::to_string(transfer.dst) + ", slot " +
                                  std::to_string(transfer.slot) + " (read from slot " +
                                  std::to_string(transfer.source_slot()) + ") outside " +
                                  std::to_string(ranks) + " ranks of " + std::to_string(slots) +
                                  " slots");
}

}  // namespace

std::span<const PlannedDestination> RoundPlan::destinations_of(int rank) const {
  const Receiver& receiver = receivers_[index(rank)];
  return std::span(destinations_).subspan(receiver.first_destination, receiver.destination_count);
}

std::span<const PlannedTransfer> RoundPlan::transfers_into(const PlannedDestination& destination) const {
  return std::span(transfers_).subspan(destination.first_transfer, destination.transfer_count);
}

std::span<const int> RoundPlan::sources_of(int rank) const {
  const Receiver& receiver = receivers_[index(rank)];
  return std::span(sources_).subspan(receiver.first_source, receiver.source_count);
}

const RoundPlan& RoundPlanner::plan(const Round& round, const CollectiveShape& shape) {
  require_inside(round, shape.ranks, shape.layout.size());
  size_tables(shape.ranks, shape.layout.size());
  collect_arrivals(round);
  order_by_receiver(shape);
  place_transfers(round);
  list_sources(round);
  clear_tables();
  return plan_;
}

void RoundPlanner::size_tables(int ranks, int slots) {
  plan_.ranks_ = ranks;
  if (ranks == ranks_ && slots == slots_) return;
  // The tables are all clear between rounds, so a new shape only needs new sizes.
  ranks_ = ranks;
  slots_ = slots;
  arrival_of_.assign(index(ranks) * index(slots), -1);
  source_listed_.assign(index(ranks) * index(ranks), 0);
}

void RoundPlanner::collect_arrivals(const Round& round) {
  arrivals_.clear();
  for (const Transfer& transfer : round.transfers) {
    int& arrival = arrival_of_[index(transfer.dst) * index(slots_) + index(transfer.slot)];
    if (arrival < 0) {
      arrival = static_cast<int>(arrivals_.size());
      arrivals_.push_back({transfer.dst, transfer.slot, 0, false, 0, PlannedTransfer::kReadsLiveSlot});
    }
    Arrival& destination = arrivals_[index(arrival)];
    ++destination.transfer_count;
    destination.completes = destination.completes || transfer.completes_slot;
  }
}

// A counting sort of the arrivals by receiving rank, stable, so that each receiver's
// destinations keep their schedule order.
void RoundPlanner::order_by_receiver(const CollectiveShape& shape) {
  plan_.receivers_.assign(index(ranks_), {});
  for (const Arrival& arrival : arrivals_) {
    RoundPlan::Receiver& receiver = plan_.receivers_[index(arrival.rank)];
    ++receiver.destination_count;
    receiver.source_count += arrival.transfer_count;  // room for sources, counted below
  }
  std::size_t destinations = 0;
  std::size_t sources = 0;
  for (RoundPlan::Receiver& receiver : plan_.receivers_) {
    receiver.first_destination = destinations;
    destinations += receiver.destination_count;
    receiver.destination_count = 0;
    receiver.first_source = sources;
    sources += receiver.source_count;
    receiver.source_count = 0;
  }
  plan_.destinations_.resize(arrivals_.size());
  for (Arrival& arrival : arrivals_) {
    RoundPlan::Receiver& receiver = plan_.receivers_[index(arrival.rank)];
    arrival.placed_at = receiver.first_destination + receiver.destination_count++;
    PlannedDestination& destination = plan_.destinations_[arrival.placed_at];
    destination.rank = arrival.rank;
    destination.slot = arrival.slot;
    destination.transfer_count = arrival.transfer_count;
    destination.completes = arrival.completes;
    destination.divides_by_ranks = arrival.completes && shape.reduce == ReduceOp::avg;
  }
  std::size_t transfers = 0;
  for (PlannedDestination& destination : plan_.destinations_) {
    destination.first_transfer = transfers;
    transfers += destination.transfer_count;
  }
}

void RoundPlanner::place_transfers(const Round& round) {
  plan_.staged_reads_.clear();
  plan_.transfers_.resize(round.transfers.size());
  // Fill each destination's range from its start, in schedule order.
  for (PlannedDestination& destination : plan_.destinations_) destination.transfer_count = 0;
  for (const Transfer& transfer : round.transfers) {
    const int target = arrival_of_[index(transfer.dst) * index(slots_) + index(transfer.slot)];
    PlannedDestination& destination = plan_.destinations_[arrivals_[index(target)].placed_at];
    PlannedTransfer& planned =
        plan_.transfers_[destination.first_transfer + destination.transfer_count++];
    planned.transfer = transfer;
    planned.staged_read = PlannedTransfer::kReadsLiveSlot;
    // A read of a (rank, slot) that is also a destination this round must see the value from
    // before the round: it is staged, once however many transfers read it.
    const int written = arrival_of_[index(transfer.src) * index(slots_) + index(transfer.source_slot())];
    if (written < 0) continue;
    Arrival& overwritten = arrivals_[index(written)];
    if (overwritten.staged_read == PlannedTransfer::kReadsLiveSlot) {
      overwritten.staged_read = static_cast<int>(plan_.staged_reads_.size());
      plan_.staged_reads_.push_back({transfer.src, transfer.source_slot()});
    }
    planned.staged_read = overwritten.staged_read;
  }
}

void RoundPlanner::list_sources(const Round& round) {
  plan_.sources_.resize(round.transfers.size());
  for (const Transfer& transfer : round.transfers) {
    unsigned char& listed = source_listed_[index(transfer.dst) * index(ranks_) + index(transfer.src)];
    if (listed) continue;
    listed = 1;
    RoundPlan::Receiver& receiver = plan_.receivers_[index(transfer.dst)];
    plan_.sources_[receiver.first_source + receiver.source_count++] = transfer.src;
  }
}

void RoundPlanner::clear_tables() {
  for (const Arrival& arrival : arrivals_)
    arrival_of_[index(arrival.rank) * index(slots_) + index(arrival.slot)] = -1;
  for (int rank = 0; rank < ranks_; ++rank)
    for (int source : plan_.sources_of(rank))
      source_listed_[index(rank) * index(ranks_) + index(source)] = 0;
}

}  // namespace ringviz
