#pragma once
#include <string>

#include "app/gui/runtime/frame_host.h"
#include "app/platform/headless_context.h"
#include "app/platform/offscreen_target.h"
#include "core/model/config.h"

namespace ringviz::gui {

class GuiApp;
class KeptFrame;

// Where the headless hosts (the screenshot and the recording) draw: an OpenGL context that
// shows nothing and a framebuffer of the frame's size in it.
class HeadlessSurface {
 public:
  // No context at all, or a size past the driver's limits (named in the message): cannot_render
  // (exit 2); a framebuffer the driver refuses within them: failure (1). Unless the backend is
  // the CPU, the context goes on the GPU that CUDA device 0 is, where EGL can tell.
  HostStatus open(int width, int height, BackendChoice backend);
  platform::OffscreenTarget& target() { return target_; }
  std::string describe() const { return context_.describe(); }
  // Where one frame's CPU time went: building ImGui's frame (the panels and views, NewFrame to
  // Render) and submitting its draw lists to GL (on a software renderer this includes vertex
  // processing and binning, which happen at the draw call).
  struct FrameCpuTime {
    double build_ms = 0;
    double submit_ms = 0;
    double total_ms() const { return build_ms + submit_ms; }
  };
  // One frame of `app` into the framebuffer, the animation moved by `seconds` (0: it stands
  // still). Returns the CPU milliseconds spent building and submitting it; the GPU may still
  // be working.
  FrameCpuTime draw_frame(FrameHost& frames, GuiApp& app, double seconds);
  // Sizes the hidden window's own (default) framebuffer like the target, so that frames can be
  // timed as the interactive window draws them; false where there is no window (EGL).
  bool open_window_framebuffer();
  // One frame as the interactive window draws it, swap included (where it swaps): through
  // `kept`, or with every pixel drawn straight into the window's back buffer when `kept` is
  // null (as it drew before KeptFrame). Needs open_window_framebuffer().
  FrameCpuTime draw_window_frame(FrameHost& frames, GuiApp& app, double seconds, KeptFrame* kept);

 private:
  platform::HeadlessContext context_;
  platform::OffscreenTarget target_;  // declared after the context: deleted while it lives
  FrameStep step_for(double seconds) const;
};

}  // namespace ringviz::gui
