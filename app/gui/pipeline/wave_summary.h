#pragma once
// What one wave of a pipelined schedule is doing, in numbers the caption words and the layout
// dump writes: how many slices are in flight on a link and whether the pipeline is filling,
// full or draining (docs/architecture.md, "The pipelined ring view").
#include "core/schedule/rounds.h"

namespace ringviz::gui {

enum class WaveStage { filling, full, draining };

struct WaveSummary {
  int wave = 0;       // 1-based
  int waves = 0;
  int in_flight = 0;  // slices on the busiest link of one channel
  WaveStage stage = WaveStage::full;
  bool reduce_scatter = false;  // the wave carries rounds of this phase
  bool all_gather = false;
};

// Whether `schedule` streams slices or channels rather than lock-step rounds.
bool is_pipelined(const Schedule& schedule);

// Wave `wave` (1-based, 1 ... schedule.round_count()). In flight counts the distinct slices
// sent over one (channel, sender, receiver); the pipeline is full when that reaches what it
// can hold, min(slices, lock-step rounds), and is filling before and draining after.
WaveSummary summarise_wave(const Schedule& schedule, int wave);

const char* wave_stage_name(WaveStage stage);  // "filling", "full", "draining": the dump's words

}  // namespace ringviz::gui
