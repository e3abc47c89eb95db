#pragma once
// How one round is carried out, decided once for every backend (docs/architecture.md,
// "Backends and the round planner"). A round is a list of transfers that all happen at once;
// the plan answers, per receiving rank: which slots it writes, with which transfers in which
// order, from which ranks it reads, which of those reads must come from a copy taken before
// the round, and where avg divides by N. The CPU threads, the CUDA streams (and a
// multi-process backend later) only carry the plan out, so they cannot disagree on it.
#include <cstdint>
#include <span>
#include <vector>

#include "core/schedule/collective_shape.h"
#include "core/schedule/rounds.h"

namespace ringviz {

// One slot of one rank's working buffer.
struct RankSlot {
  int rank = 0;
  int slot = 0;
  bool operator==(const RankSlot&) const = default;
};

// A transfer of the round and where its sender's slot is read from.
struct PlannedTransfer {
  Transfer transfer;
  // Index into RoundPlan::staged_reads() when the sender's slot is also written this round
  // (read the copy taken before the round); kReadsLiveSlot otherwise.
  int staged_read = kReadsLiveSlot;

  static constexpr int kReadsLiveSlot = -1;
  bool reads_staged_copy() const { return staged_read != kReadsLiveSlot; }
};

// Everything that lands in one (rank, slot) this round.
struct PlannedDestination {
  int rank = 0;  // the receiver
  int slot = 0;
  // RoundPlan::transfers_into() of this destination: every transfer into (rank, slot), in
  // schedule order. Folding them in that order keeps several arrivals deterministic.
  std::size_t first_transfer = 0;
  std::size_t transfer_count = 0;
  // A transfer folds in the slot's last missing contribution.
  bool completes = false;
  // avg and `completes`: once the last transfer is applied, the slot is divided by N.
  bool divides_by_ranks = false;
};

class RoundPlan {
 public:
  int ranks() const { return ranks_; }

  // Every destination of the round, grouped by receiving rank (ascending); within one
  // receiver, in the order of their first transfer in the schedule.
  std::span<const PlannedDestination> destinations() const { return destinations_; }
  // The destinations rank `rank` writes this round (empty when it receives nothing).
  std::span<const PlannedDestination> destinations_of(int rank) const;
  std::span<const PlannedTransfer> transfers_into(const PlannedDestination& destination) const;
  // The distinct ranks `rank` reads from this round, in schedule order.
  std::span<const int> sources_of(int rank) const;
  // (rank, slot) pairs that are read and written in the same round: every receiver must see
  // them as they were before the round, so each is copied before anything writes it. The
  // ring never has any.
  std::span<const RankSlot> staged_reads() const { return staged_reads_; }

 private:
  friend class RoundPlanner;

  // Per receiving rank: its destinations (a range of destinations_) and sources (a range of
  // sources_, which reserves room for one source per transfer into the rank).
  struct Receiver {
    std::size_t first_destination = 0;
    std::size_t destination_count = 0;
    std::size_t first_source = 0;
    std::size_t source_count = 0;
  };

  int ranks_ = 0;
  std::vector<PlannedDestination> destinations_;
  std::vector<PlannedTransfer> transfers_;
  std::vector<Receiver> receivers_;
  std::vector<int> sources_;
  std::vector<RankSlot> staged_reads_;
};

// Plans rounds into storage it keeps: once the largest round has been planned, planning
// another allocates nothing (the CPU backend plans at every step of the visualiser).
class RoundPlanner {
 public:
  // The plan stays valid until the next call. Throws std::invalid_argument when a transfer
  // names a rank or slot outside `shape`.
  const RoundPlan& plan(const Round& round, const CollectiveShape& shape);

 private:
  // A destination in the order its first transfer appears in the round.
  struct Arrival {
    int rank = 0;
    int slot = 0;
    std::size_t transfer_count = 0;
    bool completes = false;
    std::size_t placed_at = 0;  // its index in the plan's destinations
    int staged_read = PlannedTransfer::kReadsLiveSlot;
  };

  void size_tables(int ranks, int slots);
  void collect_arrivals(const Round& round);
  void order_by_receiver(const CollectiveShape& shape);
  void place_transfers(const Round& round);
  void list_sources(const Round& round);
  void clear_tables();

  RoundPlan plan_;
  int ranks_ = 0;
  int slots_ = 0;
  std::vector<Arrival> arrivals_;
  // arrival_of_[rank * slots + slot]: index into arrivals_, or -1. A flat table rather than a
  // map, reset entry by entry after each round.
  std::vector<int> arrival_of_;
  // source_listed_[receiver * ranks + sender]: the sender is already in the receiver's list.
  std::vector<unsigned char> source_listed_;
};

}  // namespace ringviz
