#include "core/engine/provenance.h"

#include <algorithm>

#include "core/algorithms/registry.h"
#include "core/model/layout.h"
#include "core/schedule/pipeline.h"

namespace ringviz {

Provenance Provenance::initial(const Config& config) {
  Provenance provenance;
  provenance.ranks_ = config.ranks;
  provenance.slots_ = slot_count(config);
  provenance.slices_ = config.slices;
  const PipelineShape shape = pipeline_shape(config);
  provenance.pieces_ = shape.pieces_per_slot();
  provenance.lanes_ = std::max(1, shape.lanes);
  const SlotLayout layout = make_layout(config);
  provenance.piece_has_elements_.reserve(static_cast<std::size_t>(provenance.slots_) * provenance.pieces_);
  for (int slot = 0; slot < provenance.slots_; ++slot)
    for (int piece = 0; piece < provenance.pieces_; ++piece)
      provenance.piece_has_elements_.push_back(piece_span(layout[slot], shape, piece).count > 0 ? 1 : 0);
  provenance.sets_.assign(static_cast<std::size_t>(config.ranks) * provenance.slots_ * provenance.pieces_, RankSet{});
  for (int rank = 0; rank < config.ranks; ++rank)
    for (int slot = 0; slot < provenance.slots_; ++slot) {
      if (config.op == Op::allgather && slot != rank) continue;
      // An uneven AllToAll's GPU holds its own row: the blocks it sends.
      if (uneven_all_to_all(config) && slot / config.ranks != rank) continue;
      if (config.op == Op::broadcast && rank != config.root) continue;  // nothing has arrived yet
      for (int piece = 0; piece < provenance.pieces_; ++piece)
        provenance.sets_[provenance.index(rank, slot, piece)].set(static_cast<std::size_t>(rank));
    }
  return provenance;
}

RankSet Provenance::common_of(int rank, int slot, int first, int count) const {
  RankSet common;
  bool any_with_elements = false;
  for (int piece = first; piece < first + count; ++piece) {
    if (!piece_has_elements(slot, piece)) continue;
    const RankSet& held = sets_[index(rank, slot, piece)];
    common = any_with_elements ? (common & held) : held;
    any_with_elements = true;
  }
  if (any_with_elements) return common;
  common = sets_[index(rank, slot, first)];
  for (int piece = first + 1; piece < first + count; ++piece) common &= sets_[index(rank, slot, piece)];
  return common;
}

RankSet Provenance::at_lane(int rank, int slot, int lane) const {
  const int per_lane = pieces_ / lanes_;
  return common_of(rank, slot, lane * per_lane, per_lane);
}

bool Provenance::lane_has_elements(int slot, int lane) const {
  const int per_lane = pieces_ / lanes_;
  for (int piece = lane * per_lane; piece < (lane + 1) * per_lane; ++piece)
    if (piece_has_elements(slot, piece)) return true;
  return false;
}

std::vector<RankSet> Provenance::lanes_at(int rank, int slot) const {
  std::vector<RankSet> lanes;
  for (int lane = 0; lane < lanes_; ++lane)
    if (lane_has_elements(slot, lane)) lanes.push_back(at_lane(rank, slot, lane));
  if (lanes.empty()) lanes.push_back(at(rank, slot));
  return lanes;
}

void Provenance::apply(const Round& round) {
  const auto piece_of = [this](const Transfer& transfer) {
    return transfer.step.channel * slices_ + transfer.step.slice;
  };
  // Read every source before writing any destination: the round happens at once.
  std::vector<RankSet> incoming;
  incoming.reserve(round.transfers.size());
  for (const Transfer& transfer : round.transfers)
    incoming.push_back(sets_[index(transfer.src, transfer.source_slot(), piece_of(transfer))]);
  for (std::size_t i = 0; i < round.transfers.size(); ++i) {
    const Transfer& transfer = round.transfers[i];
    RankSet& local = sets_[index(transfer.dst, transfer.slot, piece_of(transfer))];
    local = transfer.kind == TransferKind::copy ? incoming[i] : (local | incoming[i]);
  }
}

}  // namespace ringviz
