#include "app/gui/pipeline/wave_summary.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <tuple>

#include "core/schedule/pipeline.h"

namespace ringviz::gui {

bool is_pipelined(const Schedule& schedule) { return pipeline_shape_of(schedule).pipelined(); }

WaveSummary summarise_wave(const Schedule& schedule, const SlotLayout& layout, int wave) {
  WaveSummary summary;
  summary.wave = wave;
  summary.waves = schedule.round_count();
  if (wave < 1 || wave > summary.waves) return summary;
  const PipelineShape shape = pipeline_shape_of(schedule);
  // Pieces are cut with the longer ones first, so the slices that hold elements are the first
  // ones of a channel part, and the largest slot's first channel part has the most of them.
  Slot largest;
  for (const Slot& slot : layout.slots)
    if (slot.count > largest.count) largest = slot;
  int slices_with_elements = 0;
  while (slices_with_elements < shape.slices && piece_span(largest, shape, slices_with_elements).count > 0)
    ++slices_with_elements;
  const Round& round = schedule.rounds[static_cast<std::size_t>(wave - 1)];
  // Slices as bits (at most kMaxSlices = 64): a link carrying several slots of one slice
  // (the naive hub) still has one slice in flight.
  std::map<std::tuple<int, int, int>, std::uint64_t> per_link;
  for (const Transfer& transfer : round.transfers) {
    const std::size_t lock_step_round = static_cast<std::size_t>(transfer.step.round);
    const Phase phase = lock_step_round < schedule.round_phases.size() ? schedule.round_phases[lock_step_round]
                                                                        : round.phase;
    (phase == Phase::reduce_scatter ? summary.reduce_scatter : summary.all_gather) = true;
    if (transfer.slot >= layout.size() || transfer_span(transfer, layout, shape).count == 0) continue;
    std::uint64_t& slices = per_link[{transfer.step.channel, transfer.src, transfer.dst}];
    slices |= std::uint64_t{1} << transfer.step.slice;
    summary.in_flight = std::max(summary.in_flight, std::popcount(slices));
  }
  summary.capacity = std::min(slices_with_elements, lock_step_round_count(schedule));
  if (summary.in_flight == 0) summary.stage = WaveStage::idle;
  else if (summary.in_flight >= summary.capacity) summary.stage = WaveStage::full;
  else summary.stage = wave < slices_with_elements ? WaveStage::filling : WaveStage::draining;
  return summary;
}

const char* wave_stage_name(WaveStage stage) {
  switch (stage) {
    case WaveStage::filling: return "filling";
    case WaveStage::full: return "full";
    case WaveStage::draining: return "draining";
    case WaveStage::idle: return "idle";
  }
  return "full";
}

}  // namespace ringviz::gui
