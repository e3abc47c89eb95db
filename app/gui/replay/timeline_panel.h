#pragma once
// The per-rank timeline of a capture, under the ring view: one row per rank, each round's send
// (with any --delay drawn apart), wait and reduce spans on rank 0's clock, round boundaries and
// the playback cursor; hovering a span gives its numbers (docs/architecture.md, "Replaying a
// recorded run").
#include "app/gui/layout/geometry.h"
#include "app/gui/state/frame_context.h"
#include "core/schedule/rounds.h"
#include "core/trace/trace_read.h"

namespace ringviz::gui {

// Microseconds on the capture's clock at playback `position`: round k + 1 in flight at a
// fraction f is f of the way from its earliest start to its latest end over the ranks.
double timeline_time_at(const CaptureRecord& capture, double position);

// How tall the timeline wants to be for `ranks` rows at `ui_scale` with text lines of
// `line_height`: at most 40% of the `available` height.
float timeline_height(int ranks, float ui_scale, float line_height, float available);

class TimelinePanel {
 public:
  void draw(const Rect& area, const CaptureRecord& capture, double position, const FrameContext& frame);
};

}  // namespace ringviz::gui
