#pragma once
#include <functional>
#include <memory>
#include <string>

#include "app/gui/render/background_fill.h"
#include "app/gui/render/cell_renderer.h"
#include "app/gui/views/centre_view.h"
#include "app/gui/layout/panel_layout.h"
#include "app/gui/runtime/playback.h"
#include "app/gui/runtime/preferences.h"
#include "app/gui/layout/ring_geometry.h"
#include "app/gui/runtime/session_model.h"

namespace ringviz::gui {

// What the window (or the headless driver) offers the GUI.
struct Host {
  std::function<void()> toggle_fullscreen;  // empty when there is no window to resize
  bool interactive = true;                  // false: headless, no input, no help toggling
};

class GuiApp;
struct PanelLayout;

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

// One selected GPU, from a click on a round-table row or on its box.
inline constexpr int kNoSelection = -1;

// The whole GUI: the model it steps through, the playback clock, the panels. The caller owns
// the GL context and ImGui's frame (NewFrame ... Render); build_frame() fills one frame.
class GuiApp {
 public:
  GuiApp(Config config, BackendChoice backend, Preferences preferences, Host host);

  // Needs a current GL 3.3 context and an ImGui context; false with `error` saying what to do.
  bool init(std::string& error);

  // Moves the animation forward by `seconds` of wall time.
  void advance(double seconds);
  // Lays out and draws every panel for a window of `width` x `height` (ImGui display units).
  void build_frame(float width, float height);
  // True while something moves, i.e. the host must keep drawing frames.
  bool animating() const;
  // Extensions are not owned and must outlive the app; they run in the order added.
  void add_extension(FrameExtension* extension) { extensions_.push_back(extension); }
  // Hosts call this after rendering a frame into the bound framebuffer, before showing it.
  void after_render(int width, int height);

  Playback& playback() { return playback_; }
  SessionModel& model() { return model_; }
  const Preferences& preferences() const { return preferences_; }
  Preferences& preferences() { return preferences_; }
  // UI scale of the current frame: content scale x text scale (x the presentation scale in
  // presentation mode); fonts are built for it.
  void set_content_scale(float scale) { content_scale_ = scale; }
  float ui_scale() const {
    return content_scale_ * preferences_.text_scale * (presentation_ ? presentation_scale_ : 1.0f);
  }
  // Presentation mode (presentation.h): larger text and no setup panel. The theme is the
  // caller's business (presentation_mode.h switches to high contrast).
  void set_presentation(bool on, float scale) {
    presentation_ = on;
    presentation_scale_ = scale;
  }
  bool presentation() const { return presentation_; }

  void add_notice(std::string notice);
  const std::vector<std::string>& notices() const { return notices_; }
  // Applies a config (from the setup panel, a key, or the command line) keeping the round.
  bool apply_config(const Config& config, BackendChoice backend);

  // Last frame's layout, for --dump-layout.
  const PanelLayout& panels() const { return panels_; }
  const RingGeometry& geometry() const { return geometry_; }
  const ShownState& shown_state();
  int selected_gpu() const { return selected_gpu_; }

  // Which view fills the centre (ring, memory, training, compare): the tab bar, --view and
  // the lesson player choose it.
  void set_centre_view(CentreView view) { views_.set_current(view); }
  CentreView centre_view() const { return views_.current(); }
  CentreViews& views() { return views_; }

 private:
  void handle_keys();
  void draw_setup_panel(const Rect& area);
  void draw_caption(const Rect& area);
  void draw_ring_view(const Rect& area);
  void draw_centre();  // the view tabs, then the caption and ring or another view
  void draw_round_table(const Rect& area);
  void draw_traffic_panel(const Rect& area);
  void draw_controls(const Rect& area);
  void draw_help_window(float width, float height);
  void draw_value_table();
  void sync_palette_and_cells();

  std::vector<FrameExtension*> extensions_;
  SessionModel model_;
  Playback playback_;
  Preferences preferences_;
  Host host_;
  CellRenderer renderer_;
  BackgroundFills fills_;  // solid backgrounds as clears (cheap on software GL)
  Config draft_;  // what the setup panel edits; applied at once when valid
  BackendChoice backend_choice_;
  std::string setup_error_;
  std::vector<std::string> notices_;
  PanelLayout panels_;
  RingGeometry geometry_;
  Rect geometry_view_{};  // what geometry_ was laid out for: recomputed only when it changes
  float geometry_line_ = 0;
  float content_scale_ = 1.0f;
  bool presentation_ = false;
  float presentation_scale_ = 1.0f;
  int selected_gpu_ = kNoSelection;
  CentreViews views_;
  CentreView tab_reported_ = CentreView::ring;  // what the tab bar showed last frame
  int uploaded_round_ = -1;
  int uploaded_generation_ = -1;
  PaletteKind uploaded_palette_ = PaletteKind::standard;
  int palette_ranks_ = -1;
  int table_scrolled_round_ = -1;
  // The value table's edit buffer: ImGui edits it live; it is applied when a field is left.
  std::vector<std::vector<double>> table_values_;
  int table_generation_ = -1;
};

}  // namespace ringviz::gui
