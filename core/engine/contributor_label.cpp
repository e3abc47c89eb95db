#include "core/engine/contributor_label.h"

#include <stdexcept>

namespace ringviz {

namespace {

bool holds(const RankSet& contributors, int rank) { return contributors.test(static_cast<std::size_t>(rank)); }

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

// How the reduction writes its terms: between them ("+", "×"), or as a function around
// comma-separated operands ("max(a0,b0)").
struct Notation {
  std::string separator;  // between the terms of the explicit form
  std::string function;   // empty for an infix form ("+", "×")
  std::string runs_function;  // the function the run form names: "prod" for a product
};

Notation notation_for(const Config& config, int terms) {
  const ReduceOp reduce = config.reduce;
  // A single term, a sum, and avg until it completes all read as sums.
  if (terms < 2 || reduce == ReduceOp::sum || (reduce == ReduceOp::avg && terms < config.ranks)) return {"+", "", ""};
  switch (reduce) {
    case ReduceOp::prod: return {"\u00d7", "", "prod"};
    case ReduceOp::max: return {",", "max", "max"};
    case ReduceOp::min: return {",", "min", "min"};
    case ReduceOp::avg: return {",", "mean", "mean"};
    case ReduceOp::sum: break;
  }
  return {"+", "", ""};
}

// Characters as they take room on screen: "×" is two bytes of UTF-8 but one character.
std::size_t characters(const std::string& text) {
  std::size_t count = 0;
  for (unsigned char c : text) count += (c & 0xC0) != 0x80 ? 1 : 0;
  return count;
}

std::string wrapped(const std::string& function, const std::string& inside) {
  return function.empty() ? inside : function + "(" + inside + ")";
}

}  // namespace

std::string rank_letter(int rank, bool upper) {
  if (rank < 26) return std::string(1, static_cast<char>((upper ? 'A' : 'a') + rank));
  std::string name(upper ? "R" : "r");  // built in two steps: GCC 12 misreports "x" + string
  name += std::to_string(rank);
  return name;
}

std::string term_label(int rank, int slot) {
  return rank_letter(rank) + (rank < 26 ? "" : "_") + std::to_string(slot);
}

std::vector<RingRun> ring_runs(const RankSet& contributors, int ranks) {
  std::vector<RingRun> runs;
  if (ranks <= 0) return runs;
  int present = 0;
  for (int rank = 0; rank < ranks; ++rank) present += holds(contributors, rank) ? 1 : 0;
  if (present == ranks) return {{0, ranks}};
  for (int rank = 0; rank < ranks; ++rank) {
    if (!holds(contributors, rank) || holds(contributors, (rank + ranks - 1) % ranks)) continue;
    RingRun run{rank, 0};
    while (holds(contributors, (rank + run.length) % ranks)) ++run.length;
    runs.push_back(run);
  }
  return runs;
}

int all_to_all_block(int sender, int holder, int slot) { return sender == holder ? slot : holder; }

LabelForms label_forms(const Config& config, const RankSet& contributors, int slot, int holder) {
  LabelForms forms;
  const int ranks = config.ranks;
  std::vector<int> members;
  for (int rank = 0; rank < ranks; ++rank)
    if (holds(contributors, rank)) members.push_back(rank);
  if (members.empty()) return forms;
  if (config.op == Op::allgather) {
    // A block is copied whole, never combined: one rank's letter.
    forms.terms = forms.runs = forms.operands = rank_letter(members.front(), true);
    return forms;
  }
  if (config.op == Op::broadcast) {
    // The root's slot, copied whole: its letter in AllGather's capitals, and the slot ("A0").
    const int root = members.front();
    forms.terms = forms.runs = forms.operands = rank_letter(root, true) + (root < 26 ? "" : "_") + std::to_string(slot);
    return forms;
  }
  if (config.op == Op::alltoall) {
    // One sender's block, copied whole: the sender's letter and the GPU the block is meant for.
    if (holder == kAnyHolder) throw std::logic_error("an AllToAll label needs the rank that holds the slot");
    const int sender = members.front();
    // Uneven: the slot is the (sender, receiver) pair itself (core/model/layout.h).
    const int block = uneven_all_to_all(config) ? slot % ranks : all_to_all_block(sender, holder, slot);
    forms.terms = forms.runs = forms.operands = term_label(sender, block);
    return forms;
  }
  const Notation notation = notation_for(config, static_cast<int>(members.size()));
  std::vector<std::string> terms;
  for (int rank : members) terms.push_back(term_label(rank, slot));
  const std::string listed = join(terms, notation.separator);
  forms.terms = wrapped(notation.function, listed);

  // Runs in an infix product would read as a sum ("a0..h0"), so the run form of every
  // reduction but the sum names its function around comma-separated items.
  const std::string item_separator = notation.runs_function.empty() ? notation.separator : std::string(",");
  std::vector<std::string> items;
  bool shortened = false;
  for (const RingRun& run : ring_runs(contributors, ranks)) {
    const std::string first = term_label(run.first, slot);
    const std::string last = term_label((run.first + run.length - 1) % ranks, slot);
    if (run.length >= 3) {
      items.push_back(first + ".." + last);
      shortened = true;
    } else {
      items.push_back(run.length == 2 ? first + item_separator + last : first);
    }
  }
  if (shortened) {
    forms.operands = join(items, item_separator);
    forms.runs = wrapped(notation.runs_function, forms.operands);
  }
  // With no run long enough to pay for its function's name ("prod(a0..c0)" against
  // "a0×b0×c0"), the terms themselves are the shortest true form.
  if (!shortened || characters(forms.runs) >= characters(forms.terms)) {
    forms.runs = forms.terms;
    forms.operands = listed;
  }
  return forms;
}

std::string reduction_label(const Config& config, const RankSet& contributors, int slot, int holder) {
  LabelForms forms = label_forms(config, contributors, slot, holder);
  return contributors.count() <= static_cast<std::size_t>(kMaxListedTerms) ? std::move(forms.terms)
                                                                             : std::move(forms.runs);
}

LabelForms lane_label_forms(const Config& config, const std::vector<RankSet>& lanes, int slot, int holder) {
  if (lanes.empty()) return {};
  bool all_alike = true;
  for (const RankSet& lane : lanes) all_alike = all_alike && lane == lanes.front();
  if (all_alike) return label_forms(config, lanes.front(), slot, holder);
  LabelForms joined;
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const LabelForms part = label_forms(config, lanes[i], slot, holder);
    const auto add = [&](std::string& to, const std::string& form) {
      to += (i ? std::string(kLaneSeparator) : std::string()) + (form.empty() ? std::string(kNothingYet) : form);
    };
    add(joined.terms, part.terms);
    add(joined.runs, part.runs);
    add(joined.operands, part.operands);
  }
  return joined;
}

std::string lane_reduction_label(const Config& config, const std::vector<RankSet>& lanes, int slot, int holder) {
  if (lanes.empty()) return {};
  bool all_alike = true;
  for (const RankSet& lane : lanes) all_alike = all_alike && lane == lanes.front();
  if (all_alike) return reduction_label(config, lanes.front(), slot, holder);
  std::string joined;
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const std::string part = reduction_label(config, lanes[i], slot, holder);
    joined += (i ? std::string(kLaneSeparator) : std::string()) + (part.empty() ? std::string(kNothingYet) : part);
  }
  return joined;
}

}  // namespace ringviz
