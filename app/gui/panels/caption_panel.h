#pragma once
// The caption above the ring view: which round this is and, in a sentence or two, what it does.
#include <string>

#include "app/gui/layout/geometry.h"
#include "app/gui/runtime/frame_context.h"
#include "app/gui/runtime/session_model.h"
#include "app/gui/text/round_caption.h"
#include "core/model/text.h"

namespace ringviz::gui {

class CaptionPanel {
 public:
  // `measured`: a replay's line about the measured round, under the title; empty otherwise.
  void draw(const Rect& area, const SessionModel& model, const FrameContext& frame, const std::string& measured = {});

 private:
  RoundCaptionKey key_;
  RoundCaption caption_;
};

}  // namespace ringviz::gui
