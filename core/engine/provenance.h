#pragma once
#include <bitset>
#include <string>
#include <vector>

#include "core/model/config.h"
#include "core/schedule/schedule.h"

namespace ringviz {

using RankSet = std::bitset<kMaxRanks>;

// For every rank and slot, the set of ranks whose input of that slot is folded into the
// current value (empty: nothing has arrived there yet). It follows the schedule alone,
// so it is the same for every backend and every input. A pipelined schedule moves pieces of
// slots (docs/architecture.md, "Pipelined schedules"), and a slot's pieces can be at
// different stages, so the sets are kept per piece.
class Provenance {
 public:
  Provenance() = default;
  static Provenance initial(const Config& config);

  // Walks lock-step rounds or pipelined waves: each transfer names its piece by its step.
  void apply(const Round& round);
  // The contributors every piece of the slot holds: with one piece per slot (lock-step), the
  // slot's set; in a pipeline, only what has reached the whole slot.
  RankSet at(int rank, int slot) const;
  const RankSet& at(int rank, int slot, int piece) const { return sets_[index(rank, slot, piece)]; }
  int ranks() const { return ranks_; }
  int pieces_per_slot() const { return pieces_; }
  bool operator==(const Provenance& other) const = default;

 private:
  std::size_t index(int rank, int slot, int piece) const {
    return (static_cast<std::size_t>(rank) * static_cast<std::size_t>(ranks_) + static_cast<std::size_t>(slot)) *
               static_cast<std::size_t>(pieces_) +
           static_cast<std::size_t>(piece);
  }
  int ranks_ = 0;
  int slices_ = 1;
  int pieces_ = 1;  // channels x slices
  std::vector<RankSet> sets_;
};

// Rank names of docs/architecture.md ("Collective semantics"): a ... z, then r26, r27 ...; upper
// case for AllGather blocks.
std::string rank_letter(int rank, bool upper = false);
// One term of a partial sum: rank letter + slot index ("a0"); for ranks past z the index is
// set off by an underscore ("r26_3") so that it stays readable.
std::string term_label(int rank, int slot);
// The label of a slot's value: "" when empty; AllGather blocks as "A"; otherwise the terms in
// rank order ("a0+b0+c0"), more than four compressed to "a0+…+h0 (8)".
std::string slot_label(Op op, const RankSet& contributors, int slot);
// The same label naming the reduction that really runs: "a0\u00d7b0" for prod, "max(a0,b0)",
// "min(a0,b0)"; avg adds like sum until its completing transfer divides by N, so its partial
// results read as sums and only a complete one as "mean(a0,b0,c0,d0)". Shared by the trace
// report, the Chrome trace and the GUI so that every surface names one reduction alike.
std::string reduction_label(const Config& config, const RankSet& contributors, int slot);

}  // namespace ringviz
