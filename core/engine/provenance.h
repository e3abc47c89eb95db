#pragma once
#include <vector>

#include "core/schedule/rounds.h"
#include "core/engine/rank_set.h"
#include "core/model/config.h"

namespace ringviz {

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
  // The contributors the slot's value holds: with one piece per slot (lock-step), the slot's
  // set; in a pipeline, what every piece with elements holds, so only what has reached all of
  // the slot's elements. A piece without elements holds no value and never holds a slot back
  // (count 8 on 4 GPUs with 2 channels x 4 slices leaves 6 of every slot's 8 pieces empty, and
  // they trail the others); a slot without any element follows all its pieces, as in lock-step.
  RankSet at(int rank, int slot) const { return common_of(rank, slot, 0, pieces_); }
  const RankSet& at(int rank, int slot, int piece) const { return sets_[index(rank, slot, piece)]; }
  // The same for one lane's part of the slot (the bidirectional ring's clockwise or
  // counter-clockwise half): its pieces are the consecutive pieces_per_slot() / lanes() from
  // lane x that count. With one lane, at(rank, slot).
  RankSet at_lane(int rank, int slot, int lane) const;
  // Each lane's contributors, lane 0 first, for the lanes that cover an element (as a piece
  // without elements, a lane without any holds no value); the slot's one set when none does.
  // What a cell's label names (contributor_label.h, lane_label_forms).
  std::vector<RankSet> lanes_at(int rank, int slot) const;
  bool lane_has_elements(int slot, int lane) const;
  int ranks() const { return ranks_; }
  int slots() const { return slots_; }  // per rank: N, or N x N for an uneven AllToAll
  int pieces_per_slot() const { return pieces_; }
  int lanes() const { return lanes_; }
  // Whether piece `piece` of `slot` covers at least one element (the same on every rank).
  bool piece_has_elements(int slot, int piece) const {
    return piece_has_elements_[static_cast<std::size_t>(slot) * static_cast<std::size_t>(pieces_) +
                               static_cast<std::size_t>(piece)] != 0;
  }
  bool operator==(const Provenance& other) const = default;

 private:
  // What pieces first .. first + count - 1 of the slot all hold, pieces without elements aside
  // (all of them when none has elements).
  RankSet common_of(int rank, int slot, int first, int count) const;
  std::size_t index(int rank, int slot, int piece) const {
    return (static_cast<std::size_t>(rank) * static_cast<std::size_t>(slots_) + static_cast<std::size_t>(slot)) *
               static_cast<std::size_t>(pieces_) +
           static_cast<std::size_t>(piece);
  }
  int ranks_ = 0;
  int slots_ = 0;
  int slices_ = 1;
  int pieces_ = 1;  // channels x slices
  int lanes_ = 1;   // the algorithm's own channels, each pieces_ / lanes_ consecutive pieces
  std::vector<RankSet> sets_;
  std::vector<char> piece_has_elements_;  // per (slot, piece)
};

}  // namespace ringviz
