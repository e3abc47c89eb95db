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
  // The words change only with the session, the round, the end and the language; reading them
  // off a round of direct on 256 GPUs (65280 transfers) every frame would cost milliseconds.
  struct Key {
    int generation = -1;
    int round = -1;
    bool finished = false;
    Language language = Language::en;
    bool operator==(const Key&) const = default;
  };
  Key key_;
  RoundCaption caption_;
};

}  // namespace ringviz::gui
