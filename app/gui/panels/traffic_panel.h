#pragma once
// The traffic panel: bytes each GPU has sent and received so far, their totals, and the ring
// formula they add up to.
#include "app/gui/layout/geometry.h"
#include "app/gui/state/frame_context.h"
#include "app/gui/state/session_model.h"

namespace ringviz::gui {

class TrafficPanel {
 public:
  // `selected_gpu`'s row is highlighted (kNoSelection: none).
  void draw(const Rect& area, const SessionModel& model, const FrameContext& frame, int selected_gpu);
};

}  // namespace ringviz::gui
