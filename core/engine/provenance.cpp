#include "core/engine/provenance.h"

#include <cctype>

namespace ringviz {

Provenance Provenance::initial(const Config& config) {
  Provenance provenance;
  provenance.ranks_ = config.ranks;
  provenance.slices_ = config.slices;
  provenance.pieces_ = config.channels * config.slices;
  provenance.sets_.assign(static_cast<std::size_t>(config.ranks) * config.ranks * provenance.pieces_, RankSet{});
  for (int rank = 0; rank < config.ranks; ++rank)
    for (int slot = 0; slot < config.ranks; ++slot) {
      if (config.op == Op::allgather && slot != rank) continue;
      for (int piece = 0; piece < provenance.pieces_; ++piece)
        provenance.sets_[provenance.index(rank, slot, piece)].set(static_cast<std::size_t>(rank));
    }
  return provenance;
}

RankSet Provenance::at(int rank, int slot) const {
  RankSet common = sets_[index(rank, slot, 0)];
  for (int piece = 1; piece < pieces_; ++piece) common &= sets_[index(rank, slot, piece)];
  return common;
}

void Provenance::apply(const Round& round) {
  const auto piece_of = [this](const Transfer& transfer) {
    return transfer.step.channel * slices_ + transfer.step.slice;
  };
  // Read every source before writing any destination: the round happens at once.
  std::vector<RankSet> incoming;
  incoming.reserve(round.transfers.size());
  for (const Transfer& transfer : round.transfers)
    incoming.push_back(sets_[index(transfer.src, transfer.slot, piece_of(transfer))]);
  for (std::size_t i = 0; i < round.transfers.size(); ++i) {
    const Transfer& transfer = round.transfers[i];
    RankSet& local = sets_[index(transfer.dst, transfer.slot, piece_of(transfer))];
    local = transfer.kind == TransferKind::copy ? incoming[i] : (local | incoming[i]);
  }
}

std::string rank_letter(int rank, bool upper) {
  if (rank < 26) return std::string(1, static_cast<char>((upper ? 'A' : 'a') + rank));
  std::string name(upper ? "R" : "r");  // built in two steps: GCC 12 misreports "x" + string
  name += std::to_string(rank);
  return name;
}

std::string term_label(int rank, int slot) {
  return rank_letter(rank) + (rank < 26 ? "" : "_") + std::to_string(slot);
}

std::string slot_label(Op op, const RankSet& contributors, int slot) {
  std::vector<int> ranks;
  for (int rank = 0; rank < kMaxRanks; ++rank)
    if (contributors.test(static_cast<std::size_t>(rank))) ranks.push_back(rank);
  if (ranks.empty()) return "";
  if (op == Op::allgather) return rank_letter(ranks.front(), true);
  if (ranks.size() > 4)
    return term_label(ranks.front(), slot) + "+\u2026+" + term_label(ranks.back(), slot) + " (" +
           std::to_string(ranks.size()) + ")";
  std::string label;
  for (int rank : ranks) label += (label.empty() ? "" : "+") + term_label(rank, slot);
  return label;
}

std::string reduction_label(const Config& config, const RankSet& contributors, int slot) {
  const ReduceOp reduce = config.reduce;
  const int terms = static_cast<int>(contributors.count());
  if (config.op == Op::allgather || reduce == ReduceOp::sum || terms < 2 ||
      (reduce == ReduceOp::avg && terms < config.ranks))
    return slot_label(config.op, contributors, slot);
  std::vector<int> ranks;
  for (int rank = 0; rank < kMaxRanks; ++rank)
    if (contributors.test(static_cast<std::size_t>(rank))) ranks.push_back(rank);
  const bool product = reduce == ReduceOp::prod;
  const std::string separator = product ? "\u00d7" : ",";
  const bool compressed = ranks.size() > 4;
  std::string inside;
  if (compressed) {
    inside = term_label(ranks.front(), slot) + separator + "\u2026" + separator + term_label(ranks.back(), slot);
  } else {
    for (int rank : ranks) inside += (inside.empty() ? "" : separator) + term_label(rank, slot);
  }
  const char* function = reduce == ReduceOp::max ? "max" : reduce == ReduceOp::min ? "min" : "mean";
  std::string label = product ? inside : std::string(function) + "(" + inside + ")";
  if (compressed) label += " (" + std::to_string(ranks.size()) + ")";
  return label;
}

}  // namespace ringviz
