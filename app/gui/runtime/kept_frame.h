#pragma once
// The interactive window's frame, kept between frames so that only what changed is redrawn
// (FrameDamage). A window's back buffer holds undefined pixels after a swap, so:
//   - by default frames go into a persistent OffscreenTarget, redrawing the damaged rectangles
//     there, and the whole of it is copied to the window's back buffer before the swap;
//   - where the window can show parts of its back buffer without a swap (GLX_MESA_copy_sub_buffer,
//     used on software rasterisers, where that whole-frame copy costs about as much as drawing
//     the frame), the back buffer is never swapped, so it keeps its pixels: the damaged
//     rectangles are redrawn there and only they are copied to the window;
//   - where the destination itself keeps its pixels from one frame to the next (the browser's
//     canvas, made with preserveDrawingBuffer), the damaged rectangles are redrawn straight into
//     it: nothing to copy (on SwiftShader a whole-frame copy costs more than drawing the frame).
// docs/architecture.md, "Frame time".
#include <vector>

#include "app/gui/render/damage_rect.h"
#include "app/platform/glx_sub_buffer.h"
#include "app/platform/offscreen_target.h"

namespace ringviz::gui {

class FrameHost;
class GuiApp;

class KeptFrame {
 public:
  // How the last frame was drawn and shown.
  enum class Path {
    whole,        // every pixel straight into the destination (no size to keep, or refused)
    target,       // damage into the kept target, all of it copied to the destination
    back_buffer,  // damage into the window's back buffer, only it shown (no swap)
    destination,  // damage straight into a destination that keeps its pixels
  };

  // Shows frames with `copy` (open, for the current window) instead of swapping; null: swap.
  void show_parts_with(const platform::GlxSubBufferCopy* copy) { parts_ = copy; }
  // The destination keeps what was drawn into it until it is drawn over or resized (a WebGL
  // canvas with preserveDrawingBuffer): frames redraw only what changed, there.
  void destination_keeps_pixels(bool keeps) { destination_keeps_ = keeps; }
  // Draws the frame FrameHost::build() just built, of width x height pixels, into
  // `destination` (0: the window's default framebuffer), or, when parts are shown, into the
  // window's back buffer and onto the window. A new size, or a frame of no pixels (a minimised
  // window) in between, makes the next kept frame whole; a driver that refuses a target of
  // this size gets the frame drawn whole into `destination`, as windows drew before.
  void draw(FrameHost& frames, GuiApp& app, int width, int height, unsigned destination = 0);
  // Whether the host must swap buffers to show the last frame (not when parts were shown).
  bool swap_needed() const { return path_ != Path::back_buffer; }
  // The next frame is drawn and shown whole: the window was resized or exposed, and what it
  // shows (or its back buffer) may have lost pixels.
  void show_whole_next() { whole_next_ = true; }
  Path path() const { return path_; }
  static const char* path_name(Path path);  // "whole", "target", "back_buffer"
  // What the last frame showed of the back buffer (Path::back_buffer), top-down pixels.
  const std::vector<PixelRect>& shown() const { return shown_; }

 private:
  const platform::GlxSubBufferCopy* parts_ = nullptr;
  bool destination_keeps_ = false;
  platform::OffscreenTarget target_;
  Path path_ = Path::whole;
  int width_ = 0, height_ = 0;  // of the last kept frame
  bool whole_next_ = true;
  std::vector<PixelRect> shown_;
};

}  // namespace ringviz::gui
