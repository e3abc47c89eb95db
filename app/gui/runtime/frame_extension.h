#pragma once
// How the GUI meets what surrounds it: the Host (the window, or the headless driver, it runs
// in) and the FrameExtensions that ride along with its frames. Apart from gui_app.h so that an
// extension's header needs nothing of the GUI's panels and views.
#include <functional>
#include <string>

namespace ringviz::gui {

class GuiApp;
struct PanelLayout;

// What the window (or the headless driver) offers the GUI.
struct Host {
  std::function<void()> toggle_fullscreen;  // empty when there is no window to resize
  bool interactive = true;                  // false: headless, no input, no help toggling
  std::string graphics;                     // the GL context, e.g. "EGL device 0 (NVIDIA H200/PCIe/SSE2)"
};

// Something that rides along with the GUI's frames without being one of its panels (the
// lesson player, the recorder). Hosts call GuiApp::advance() once per frame before
// ImGui::NewFrame() and GuiApp::after_render() once the frame is drawn, before it is shown.
class FrameExtension {
 public:
  virtual ~FrameExtension() = default;
  // Between frames, so the font atlas may change here. May replace the frame's time step
  // (a recording steps by exactly 1/fps, whatever the wall clock says).
  virtual void before_frame(GuiApp&, double& /*seconds*/) {}
  // Inside the frame, before the panels: the place to set the config or the timeline.
  virtual void before_panels(GuiApp&) {}
  // Inside the frame, after every panel: overlays.
  virtual void after_panels(GuiApp&, const PanelLayout&) {}
  // Inside the setup panel, after its own widgets: settings of the extension's own.
  virtual void setup_panel_end(GuiApp&) {}
  // After the frame is rendered into the bound framebuffer (width x height pixels).
  virtual void after_render(GuiApp&, int /*width*/, int /*height*/) {}
  // True while the extension needs frames drawn even though nothing else moves.
  virtual bool animating() const { return false; }
  // Pixels to take off the bottom of the centre view for an overlay (the lesson captions), so
  // that the view lays itself out above it instead of under it.
  virtual float reserve_below_view(GuiApp&, const PanelLayout&) { return 0; }
};

}  // namespace ringviz::gui
