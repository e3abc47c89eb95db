#pragma once
// How every surface (trace tables, the Chrome trace, the GUI's cells, packets and tooltips)
// names the ranks folded into a slot's value (docs/architecture.md, "Collective semantics",
// Labels). A label never claims a rank it does not hold: it lists its terms, or writes runs
// that are contiguous in ring order ("c2..a2" is c2+d2+a2 on four GPUs), never first..last
// across a gap.
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/rank_set.h"
#include "core/model/config.h"

namespace ringviz {

// Rank names: a ... z, then r26, r27 ...; upper case for AllGather blocks.
std::string rank_letter(int rank, bool upper = false);
// One term of a partial result: rank letter + slot index ("a0"); for ranks past z the index is
// set off by an underscore ("r26_3") so that it stays readable.
std::string term_label(int rank, int slot);

// `length` ranks contiguous in ring order from `first`, wrapping from N - 1 to 0.
struct RingRun {
  int first = 0;
  int length = 0;
  bool operator==(const RingRun&) const = default;
};

// The contributors as maximal ring runs. A run starts at a rank whose ring predecessor
// ((r - 1) mod N) is absent, so a run that wraps past GPU N - 1 stays one run; a complete
// ring is one run from rank 0. Runs are listed by their first rank.
std::vector<RingRun> ring_runs(const RankSet& contributors, int ranks);

// The forms one slot's label can take, longest first. All three name exactly the contributors.
struct LabelForms {
  // Every term, in rank order: "a2+c2+d2", "a0×b0", "max(a0,b0)", "mean(a0,b0,c0,d0)".
  std::string terms;
  // Runs of three or more terms written first..last: "c2..a2", "a0+c0..e0"; a reduction other
  // than a sum names itself around them: "max(a0..d0)", "prod(a0,c0..e0)", "mean(a0..h0)".
  std::string runs;
  // `runs` without the reduction's name, for a packet whose stripes already show the
  // inputs: "a0..d0" for "max(a0..d0)"; equal to `runs` for sums.
  std::string operands;
};

// Empty forms when nothing has arrived; an AllGather block is its upper-case letter ("A").
// prod, max and min name the reduction once two terms are in; avg adds like sum until its
// completing transfer divides by N, so only a complete avg reads "mean(...)".
// `holder`, the rank whose slot this is, matters to AllToAll alone, whose label names the
// sender's block by the GPU it is meant for ("a2": GPU 0's block for GPU 2, in GPU 0's slot 2
// before the exchange and in GPU 2's slot 0 after it); the slot and the sender do not say which
// block GPU i's slot i holds. An AllToAll label without a holder (kAnyHolder) is a logic error.
inline constexpr int kAnyHolder = -1;
LabelForms label_forms(const Config& config, const RankSet& contributors, int slot, int holder = kAnyHolder);
// AllToAll: the block a slot of `holder` holds when it holds `sender`'s data: its own block
// `slot` (sender == holder), or the sender's block meant for it.
int all_to_all_block(int sender, int holder, int slot);

// The label the tables print: every term up to four terms, the ring runs beyond.
inline constexpr int kMaxListedTerms = 4;
std::string reduction_label(const Config& config, const RankSet& contributors, int slot, int holder = kAnyHolder);

// A slot cut in lanes (the bidirectional ring's two halves, clockwise first) whose lanes hold
// different contributors is named lane by lane: "a0+b0 | b0+c0", and "A | -" for an AllGather
// slot whose second half has not arrived yet. Lanes that agree share one label, as a slot of
// one lane has it. `lanes`: Provenance::lanes_at.
inline constexpr std::string_view kLaneSeparator = " | ";
inline constexpr std::string_view kNothingYet = "-";
LabelForms lane_label_forms(const Config& config, const std::vector<RankSet>& lanes, int slot,
                            int holder = kAnyHolder);
std::string lane_reduction_label(const Config& config, const std::vector<RankSet>& lanes, int slot,
                                 int holder = kAnyHolder);

}  // namespace ringviz
