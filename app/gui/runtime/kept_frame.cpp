#include "app/gui/runtime/kept_frame.h"

#include <string>

#include "app/gui/runtime/frame_host.h"
#include "app/platform/gl.h"

namespace ringviz::gui {

void KeptFrame::draw(FrameHost& frames, GuiApp& app, int width, int height, unsigned destination) {
  shown_.clear();
  Path path = Path::whole;
  std::string error;  // a refused size only costs the saving; the frame is still drawn
  if (width > 0 && height > 0)
    path = parts_ != nullptr ? Path::back_buffer
           : destination_keeps_ ? Path::destination
           : target_.resize(width, height, error) ? Path::target
           : Path::whole;
  if (path == Path::whole) {
    // Nothing kept: every pixel is drawn where it is shown.
    if (path_ != Path::whole) frames.keep_unchanged_pixels(false);
    path_ = Path::whole;
    whole_next_ = true;  // what was kept is not kept up to date meanwhile
    glBindFramebuffer(GL_FRAMEBUFFER, destination);
    frames.draw(app, width, height);
    return;
  }
  // Pixels kept for another size or path, or none yet: this frame is drawn whole.
  const bool whole = whole_next_ || path != path_ || width != width_ || height != height_;
  if (whole) frames.keep_unchanged_pixels(true);
  // ... and a back buffer never swapped must first learn the window's size.
  if (whole && path == Path::back_buffer) parts_->follow_window_size();
  whole_next_ = false;
  path_ = path;
  width_ = width;
  height_ = height;
  if (path == Path::back_buffer) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    frames.draw(app, width, height);
    shown_ = frames.rects_redrawn();
    for (const PixelRect& r : shown_) parts_->copy(r.x0, height - r.y1, r.x1 - r.x0, r.y1 - r.y0);
    return;
  }
  if (path == Path::destination) {
    glBindFramebuffer(GL_FRAMEBUFFER, destination);
    frames.draw(app, width, height);
    return;
  }
  target_.bind();
  frames.draw(app, width, height);
  // The whole kept frame to the window: its back buffer kept nothing from the last swap.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, target_.framebuffer());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, destination);
  glDisable(GL_SCISSOR_TEST);  // the scissor clips a blit too: none may be left on
  glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, destination);
}

const char* KeptFrame::path_name(Path path) {
  switch (path) {
    case Path::whole: return "whole";
    case Path::target: return "target";
    case Path::back_buffer: return "back_buffer";
    case Path::destination: return "destination";
  }
  return "whole";
}

}  // namespace ringviz::gui
