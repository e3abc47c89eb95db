#pragma once
// What one wave of a pipelined schedule is doing, in numbers the caption words and the layout
// dump writes: how many slices are in flight on a link and whether the pipeline is filling,
// full or draining (docs/architecture.md, "The pipelined ring view").
#include "core/model/layout.h"
#include "core/schedule/rounds.h"

namespace ringviz::gui {

// `idle`: the wave moves only pieces without elements (0 B), so nothing really travels.
enum class WaveStage { filling, full, draining, idle };

struct WaveSummary {
  int wave = 0;       // 1-based
  int waves = 0;
  // Slices carrying elements on the busiest link of one channel. A piece without elements
  // travels too (its transfer moves 0 B) but is not counted: a pipeline of empty pieces is
  // not full.
  int in_flight = 0;
  int capacity = 0;   // what in_flight reaches when the pipeline is full
  WaveStage stage = WaveStage::full;
  bool reduce_scatter = false;  // the wave carries rounds of this phase
  bool all_gather = false;
};

// Whether `schedule` streams slices or channels rather than lock-step rounds: the
// bidirectional ring's two lanes alone still run in rounds (PipelineShape::pipelined).
bool is_pipelined(const Schedule& schedule);

// Wave `wave` (1-based, 1 ... schedule.round_count()) of a schedule over `layout`. In flight
// counts the distinct slices with elements sent over one (channel, sender, receiver); the
// pipeline is full when that reaches what it can hold, min(slices that hold elements,
// lock-step rounds), filling before and draining after, and idle in a wave that moves no
// element at all.
WaveSummary summarise_wave(const Schedule& schedule, const SlotLayout& layout, int wave);

const char* wave_stage_name(WaveStage stage);  // "filling", "full", "draining", "idle": the dump's words

}  // namespace ringviz::gui
