#pragma once
// The caption above the ring view: which round this is and, in a sentence or two, what it does.
#include <string>

#include "app/gui/layout/geometry.h"
#include "app/gui/state/frame_context.h"
#include "app/gui/state/session_model.h"
#include "app/gui/text/round_caption.h"
#include "core/model/text.h"

namespace ringviz::gui {

class CaptionPanel {
 public:
  // `measured`: a replay's line about the measured round, under the title; empty otherwise.
  void draw(const Rect& area, const SessionModel& model, const FrameContext& frame, const std::string& measured = {});
  // The height the caption needs at `width` with the current font: the title (and the measured
  // line when it does not fit beside it) and the explanation wrapped, so the layout can give it
  // that much instead of cutting a long explanation off.
  float needed_height(float width, const SessionModel& model, const FrameContext& frame, const std::string& measured = {});

 private:
  const RoundCaption& caption_at(const SessionModel& model, const FrameContext& frame);
  static void draw_whole_lines(const std::string& text, float bottom);

  RoundCaptionKey key_;
  RoundCaption caption_;
};

}  // namespace ringviz::gui
