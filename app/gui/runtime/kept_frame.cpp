#include "app/gui/runtime/kept_frame.h"

#include <string>

#include "app/gui/runtime/frame_host.h"
#include "app/platform/gl.h"

namespace ringviz::gui {

void KeptFrame::draw(FrameHost& frames, GuiApp& app, int width, int height, unsigned destination) {
  const bool new_size = width != target_.width() || height != target_.height();
  std::string error;  // a refused size only costs the saving; the frame is still drawn
  const bool usable = width > 0 && height > 0 && target_.resize(width, height, error);
  if (!usable) {
    // Nothing kept: every pixel is drawn where it is shown.
    if (kept_) frames.keep_unchanged_pixels(false);
    kept_ = false;
    glBindFramebuffer(GL_FRAMEBUFFER, destination);
    frames.draw(app, width, height);
    return;
  }
  // A colour buffer just (re)allocated holds nothing drawn yet: its first frame is whole.
  if (!kept_ || new_size) frames.keep_unchanged_pixels(true);
  kept_ = true;
  target_.bind();
  frames.draw(app, width, height);
  // The whole kept frame to the window: its back buffer kept nothing from the last swap.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, target_.framebuffer());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, destination);
  glDisable(GL_SCISSOR_TEST);  // the scissor clips a blit too: none may be left on
  glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, destination);
}

}  // namespace ringviz::gui
