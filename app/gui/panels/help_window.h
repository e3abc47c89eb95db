#pragma once
// The help window: every shortcut and a short guide, kept next to the code that implements
// them so it stays true.

namespace ringviz::gui {

class HelpWindow {
 public:
  // Centred in a `width` x `height` window when it appears; closing it clears `open`.
  void draw(float width, float height, float ui_scale, bool& open);
};

}  // namespace ringviz::gui
