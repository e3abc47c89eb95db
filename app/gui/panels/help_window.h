#pragma once
// The help window: every shortcut and a short guide, kept next to the code that implements
// them so it stays true.
#include <string>

#include "core/model/config.h"
#include "core/model/text.h"

namespace ringviz::gui {

class HelpWindow {
 public:
  // Centred in a `width` x `height` window when it appears; closing it clears `open`.
  // `config`: the guide's algorithm (the ring's arrows, or who sends to whom per round) and the
  // reduction the legend names ("a partial sum", "a running maximum"). `backend_notice`: why
  // the session runs on the CPU, in full (the status bar has only a few words); empty: nothing.
  void draw(float width, float height, float ui_scale, Language language, const Config& config, const std::string& backend_notice,
            bool& open);
};

}  // namespace ringviz::gui
