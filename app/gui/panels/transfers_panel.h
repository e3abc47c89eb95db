#pragma once
// The transfers table: every row `ringviz trace` has (round, phase, sender, receiver, slot,
// kind, bytes); the current round's rows are highlighted and kept in view.
#include "app/gui/layout/geometry.h"
#include "app/gui/runtime/frame_context.h"
#include "app/gui/runtime/session_model.h"

namespace ringviz::gui {

class TransfersPanel {
 public:
  // A click on a row selects its sending GPU in `selected_gpu`, or clears it when it was.
  void draw(const Rect& area, const SessionModel& model, const FrameContext& frame, int& selected_gpu);
  // Scrolls to the current round's rows at the next frame, as after a new config.
  void follow_current_round() { scrolled_round_ = -1; }

 private:
  int scrolled_round_ = -1;  // the round whose rows were last scrolled into view
};

}  // namespace ringviz::gui
