#include "core/schedule/pipeline.h"

#include <algorithm>

namespace ringviz {

namespace {

// Part `index` of `count` elements cut into `parts`, the first count % parts one longer.
Slot even_part(std::int64_t offset, std::int64_t count, int parts, int index) {
  const std::int64_t base = count / parts;
  const std::int64_t longer = count % parts;
  return {offset + base * index + std::min<std::int64_t>(index, longer), base + (index < longer ? 1 : 0)};
}

}  // namespace

Schedule pipeline_schedule(const Schedule& rounds, PipelineShape shape) {
  Schedule result;
  result.owned_slot = rounds.owned_slot;
  result.through_switch = rounds.through_switch;
  // An algorithm whose own rounds already run on several channels (the bidirectional ring:
  // one per direction) keeps them as groups: its channel b becomes channels b·C .. b·C + C - 1.
  const int lanes = std::max(1, rounds.channels);
  result.channels = lanes * shape.channels;
  result.slices = shape.slices;
  result.lanes = lanes;
  for (const Round& round : rounds.rounds) result.round_phases.push_back(round.phase);
  const int round_count = rounds.round_count();
  const int wave_count = round_count == 0 ? 0 : round_count + shape.slices - 1;
  result.rounds.resize(static_cast<std::size_t>(wave_count));
  // Wave w holds round t = w - slice for every slice. Walking channels outermost, then rounds,
  // groups a wave's transfers by channel (a channel's steps read as one lane), then orders them
  // by round and the round's own order, without sorting afterwards: the test suites replace
  // the global allocator, and std::stable_sort's temporary buffer does not go through it.
  for (int lane = 0; lane < lanes; ++lane)
    for (int part = 0; part < shape.channels; ++part)
      for (int t = 0; t < round_count; ++t) {
        const Round& round = rounds.rounds[static_cast<std::size_t>(t)];
        for (int slice = 0; slice < shape.slices; ++slice) {
          Round& wave = result.rounds[static_cast<std::size_t>(t + slice)];
          if (wave.transfers.empty()) wave.phase = round.phase;
          for (Transfer transfer : round.transfers) {
            if (transfer.step.channel != lane) continue;
            transfer.step = {lane * shape.channels + part, t, slice};
            wave.transfers.push_back(transfer);
          }
        }
      }
  return result;
}

int lock_step_round_count(const Schedule& schedule) {
  return schedule.round_phases.empty() ? schedule.round_count()
                                       : static_cast<int>(schedule.round_phases.size());
}

Slot piece_span(const Slot& slot, PipelineShape shape, int piece) {
  const int lanes = std::max(1, shape.lanes);
  const int per_lane = shape.channels / lanes;
  const int channel = piece / shape.slices;
  const Slot lane_part = even_part(slot.offset, slot.count, lanes, channel / per_lane);
  const Slot channel_part = even_part(lane_part.offset, lane_part.count, per_lane, channel % per_lane);
  return even_part(channel_part.offset, channel_part.count, shape.slices, piece % shape.slices);
}

Slot transfer_span(const Transfer& transfer, const SlotLayout& layout, PipelineShape shape) {
  const Slot& slot = layout[transfer.slot];
  return shape.whole_slots() ? slot : piece_span(slot, shape, shape.piece_of(transfer.step));
}

SlotLayout piece_layout(const SlotLayout& layout, PipelineShape shape) {
  if (shape.whole_slots()) return layout;
  SlotLayout pieces;
  pieces.elements_per_rank = layout.elements_per_rank;
  for (const Slot& slot : layout.slots)
    for (int piece = 0; piece < shape.pieces_per_slot(); ++piece)
      pieces.slots.push_back(piece_span(slot, shape, piece));
  return pieces;
}

PieceFill piece_fill(const Config& config, PipelineShape shape) {
  const std::int64_t per_slot = shape.pieces_per_slot();
  PieceFill fill;
  fill.count_to_fill = uneven_all_to_all(config) ? 0 : per_slot * (config.op == Op::allgather ? 1 : config.ranks);
  const SlotLayout layout = make_layout(config);
  for (const Slot& slot : layout.slots) {
    fill.total += per_slot;
    // Pieces are cut evenly with the longer ones first: those past the slot's element count
    // are the empty ones.
    fill.empty += std::max<std::int64_t>(0, per_slot - slot.count);
  }
  return fill;
}

Schedule execution_schedule(const Schedule& waves) {
  const PipelineShape shape = pipeline_shape_of(waves);
  if (shape.whole_slots()) return waves;
  Schedule execution = waves;
  const int pieces = shape.pieces_per_slot();
  for (Round& wave : execution.rounds)
    for (Transfer& transfer : wave.transfers) {
      const int piece = shape.piece_of(transfer.step);
      if (transfer.src_slot != Transfer::kSameSlot) transfer.src_slot = transfer.src_slot * pieces + piece;
      transfer.slot = transfer.slot * pieces + piece;
    }
  return execution;
}

}  // namespace ringviz
