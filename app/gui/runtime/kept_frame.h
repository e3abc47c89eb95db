#pragma once
// The interactive window's frame, kept between swaps. A window's back buffer holds undefined
// pixels after a swap, so drawing only what changed (FrameDamage) needs a framebuffer of our
// own: frames go into a persistent OffscreenTarget, redrawing the damaged rectangles there, and
// the whole of it is copied to the window's framebuffer before the swap (docs/architecture.md,
// "Frame time").
#include "app/platform/offscreen_target.h"

namespace ringviz::gui {

class FrameHost;
class GuiApp;

class KeptFrame {
 public:
  // Draws the frame FrameHost::build() just built, of width x height pixels, and leaves it in
  // `destination` (0: the window's default framebuffer). The kept framebuffer follows the size:
  // a new size makes a new one and the next frame is drawn whole. Where no framebuffer of that
  // size can be had (0 pixels, or one the driver refuses), the frame is drawn whole straight
  // into `destination`, as windows drew before.
  void draw(FrameHost& frames, GuiApp& app, int width, int height, unsigned destination = 0);
  // Whether the last draw() went through the kept framebuffer.
  bool kept() const { return kept_; }

 private:
  platform::OffscreenTarget target_;
  bool kept_ = false;
};

}  // namespace ringviz::gui
