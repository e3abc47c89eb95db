#pragma once
// The ring view's pipelined layer (docs/architecture.md, "The pipelined ring view"): the
// wave's caption and channel selector in a strip above the ring, every slice in flight as a
// marker on its link, and each slot cell's C·S pieces as segments of a bar, each showing whom
// its own piece has folded in, so that a slot partly reduced is visible.
#include <cstdint>
#include <vector>

#include <imgui.h>

#include "app/gui/layout/geometry.h"
#include "app/gui/layout/ring_geometry.h"
#include "app/gui/layout/switch_geometry.h"
#include "app/gui/pipeline/pipeline_markers.h"
#include "app/gui/pipeline/piece_bars.h"
#include "app/gui/pipeline/wave_summary.h"
#include "app/gui/render/theme.h"
#include "app/gui/state/playback.h"
#include "core/engine/provenance.h"
#include "core/model/text.h"
#include "core/schedule/pipeline.h"

namespace ringviz::gui {

// What the last frame showed, for --dump-layout.
struct PipelineFrame {
  bool pipelined = false;
  int channels = 1;
  int slices = 1;
  int channel_shown = kAllChannels;
  WaveSummary summary;  // wave 0: at rest before the first
  PieceFill fill;       // how many pieces hold no elements
  PieceBars bars;       // where each cell's pieces were drawn
  std::vector<PipelineMarker> markers;
};

struct PipelineScene {
  ImDrawList* dl;
  const ViewColours& colours;
  PaletteKind palette;
  const RingGeometry& geometry;
  const Schedule& schedule;
  const SlotLayout& layout;  // the lock-step slots the pieces are cut from
  const Config& config;
  RoundMoment moment;
  int n;
  float line;
  float ui_scale;
  bool counter_clockwise = false;  // the ring's back arrows are drawn (place_markers)
  const SwitchGeometry* in_switch = nullptr;  // the switch drawn for nvls: markers ride its spokes
  Language language = Language::en;
};

class PipelineOverlay {
 public:
  // The strip above the ring that the caption and the selector take: the longest wave caption
  // of the schedule wrapped to the strip's `width` (at most kMaxStripLines lines; a longer one
  // is cut) and a margin. The longest, so the ring stays put from wave to wave.
  static constexpr int kMaxStripLines = 3;
  float strip_height(const Schedule& schedule, const SlotLayout& layout, const Config& config, float width,
                     float line, Language language);

  // Starts the frame's record; off when the schedule runs in lock-step.
  void begin(const Schedule& schedule);
  // In `strip`: the wave's caption, and the channel selector when the channels outnumber the
  // lanes (kMaxChannelLanes).
  void draw_strip(const PipelineScene& scene, const Rect& strip);
  // Every slice of the wave in flight; `before`: the provenance at the wave's start.
  void draw_markers(const PipelineScene& scene, const Provenance& before);
  // Each cell's pieces between `top` and `bottom` pixels inside it (what its label and values
  // leave free); `shown`: the provenance the cells show.
  void draw_piece_bars(const PipelineScene& scene, const Provenance& shown, float top, float bottom);

  const PipelineFrame& frame() const { return frame_; }

 private:
  int channel_shown(int channels) const;
  // The caption's share of a strip `width` wide: all of it, or what the channel selector leaves.
  static float caption_width(const Schedule& schedule, float width, float line, Language language);

  int selected_channel_ = 0;  // when the channels are too many for lanes
  // strip_height()'s last answer and what it was asked (the schedule by address and shape).
  struct StripQuestion {
    const Schedule* schedule = nullptr;
    int rounds = -1, ranks = -1, channels = -1, slices = -1;
    std::int64_t count = -1;
    float width = -1, line = -1;
    Language language = Language::en;
    bool operator==(const StripQuestion&) const = default;
  };
  StripQuestion strip_question_;
  float strip_height_ = 0;
  PipelineFrame frame_;
};

}  // namespace ringviz::gui
