#include "app/gui/pipeline/wave_summary.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <tuple>

#include "core/schedule/pipeline.h"

namespace ringviz::gui {

bool is_pipelined(const Schedule& schedule) { return schedule.channels != 1 || schedule.slices != 1; }

WaveSummary summarise_wave(const Schedule& schedule, int wave) {
  WaveSummary summary;
  summary.wave = wave;
  summary.waves = schedule.round_count();
  if (wave < 1 || wave > summary.waves) return summary;
  const Round& round = schedule.rounds[static_cast<std::size_t>(wave - 1)];
  // Slices as bits (at most kMaxSlices = 64): a link carrying several slots of one slice
  // (the naive hub) still has one slice in flight.
  std::map<std::tuple<int, int, int>, std::uint64_t> per_link;
  for (const Transfer& transfer : round.transfers) {
    std::uint64_t& slices = per_link[{transfer.step.channel, transfer.src, transfer.dst}];
    slices |= std::uint64_t{1} << transfer.step.slice;
    summary.in_flight = std::max(summary.in_flight, std::popcount(slices));
    const std::size_t lock_step_round = static_cast<std::size_t>(transfer.step.round);
    const Phase phase = lock_step_round < schedule.round_phases.size() ? schedule.round_phases[lock_step_round]
                                                                        : round.phase;
    (phase == Phase::reduce_scatter ? summary.reduce_scatter : summary.all_gather) = true;
  }
  const int capacity = std::min(schedule.slices, lock_step_round_count(schedule));
  if (summary.in_flight >= capacity) summary.stage = WaveStage::full;
  else summary.stage = wave < schedule.slices ? WaveStage::filling : WaveStage::draining;
  return summary;
}

const char* wave_stage_name(WaveStage stage) {
  switch (stage) {
    case WaveStage::filling: return "filling";
    case WaveStage::full: return "full";
    case WaveStage::draining: return "draining";
  }
  return "full";
}

}  // namespace ringviz::gui
