#pragma once
#include <optional>
#include <string>
#include <vector>

#include "app/gui/layout/panel_layout.h"
#include "app/gui/layout/ring_geometry.h"
#include "app/gui/panels/caption_panel.h"
#include "app/gui/panels/controls_bar.h"
#include "app/gui/panels/help_window.h"
#include "app/gui/panels/setup_panel.h"
#include "app/gui/panels/traffic_panel.h"
#include "app/gui/panels/transfers_panel.h"
#include "app/gui/render/background_fill.h"
#include "app/gui/replay/replay_panel.h"
#include "app/gui/replay/replay_source.h"
#include "app/gui/replay/timeline_panel.h"
#include "app/gui/state/frame_context.h"
#include "app/gui/runtime/frame_extension.h"
#include "app/gui/state/playback.h"
#include "app/gui/state/preferences.h"
#include "app/gui/state/session_model.h"
#include "app/gui/views/centre_view.h"
#include "app/gui/views/ring_view.h"

namespace ringviz::gui {

// The whole GUI: the model it steps through, the playback clock, and the panels and views
// that draw them (panels/, views/), each given what it needs every frame and handing changes
// back through its arguments (docs/architecture.md, "The GUI: frame host, panels and views").
// The caller owns the GL context and ImGui's frame (NewFrame ... Render); build_frame() fills
// one frame.
class GuiApp {
 public:
  // `request` has passed validate_show_request; `replay`, when given, is its recorded run,
  // already read (a refused document is the caller's exit 2), and opens in init(); `plan`,
  // when given, is what validate_show_request returned, stepped without being built again.
  GuiApp(const ShowRequest& request, BackendChoice backend, Preferences preferences, Host host,
         std::optional<ReplaySource> replay = std::nullopt, std::optional<CollectivePlan> plan = std::nullopt);

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
  // The timeline Space, the arrow keys, the controls bar and --round drive: the memory view's
  // iteration while the Memory tab shows DDP beside ZeRO, the ring's rounds otherwise.
  Playback& transport();
  // The Memory tab's DDP-beside-ZeRO stepper is on screen: transport() is its clock.
  bool memory_stepper_shown();
  SessionModel& model() { return model_; }
  const Host& host() const { return host_; }
  const Preferences& preferences() const { return preferences_; }
  Preferences& preferences() { return preferences_; }
  // The language every panel speaks this run: --lang or the saved preference at start, then L
  // or the menu (ClassroomMode), falling back to English when the Chinese font is missing.
  Language language() const { return language_; }
  void set_language(Language language) { language_ = language; }
  const UiStrings& text() const { return ui_strings_for(language_); }
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
  // The stage (app/gui/layout/stage_layout.h, `ringviz record`'s default): the view alone under
  // a header strip, without side panels, view tabs, controls or help; an extension draws the
  // header. A transparent background leaves every solid background out and clears to alpha 0.
  void set_stage(bool on) { stage_ = on; }
  bool stage() const { return stage_; }
  void set_transparent_background(bool on) {
    transparent_ = on;
    fills_.set_transparent(on);
  }
  bool transparent_background() const { return transparent_; }

  void add_notice(std::string notice);
  const std::vector<std::string>& notices() const { return notices_; }
  // Applies a config (from the setup panel, a key, or the command line) keeping the round.
  // Refused while a recorded run is open: the config is the recording's.
  bool apply_config(const Config& config, BackendChoice backend);

  // Replays a recorded run (docs/architecture.md, "Replaying a recorded run"): the session is
  // rebuilt from its config on the CPU, config editing is locked until close_replay(), which
  // returns to the collective shown before. False with `error` (file:line:column) when the
  // document is refused; what was shown stays.
  bool open_replay(const std::string& path, std::string& error);
  bool open_replay(ReplaySource replay, std::string& error);
  void close_replay();
  const ReplaySource& replay() const { return replay_; }
  // Steps collective `index` of the open job (ReplaySource::collectives()) on the ring; false,
  // with a notice, when it cannot be built (what was shown stays).
  bool show_job_collective(std::size_t index);
  void set_pacing(Pacing pacing);

  // Below the least window (panel_layout.h) at this frame's scale only a notice is drawn.
  bool too_small(float width, float height) const {
    return window_too_small(width, height, ui_scale(), stage_ ? 0.0f : ControlsBar::least_width(language_));
  }

  // Last frame's layout, for --dump-layout.
  const PanelLayout& panels() const { return panels_; }
  const RingGeometry& geometry() const { return ring_.geometry(); }
  const CellSource& cell_source() const { return ring_.cell_source(); }
  const PipelineFrame& pipeline_frame() const { return ring_.pipeline_frame(); }
  // The label the ring view drew on a cell this frame ("" when none, or another view is shown).
  std::string drawn_cell_label(int rank, int slot) const { return ring_.drawn_label(rank, slot); }
  const std::vector<DrawnArrow>& drawn_arrows() const { return ring_.drawn_arrows(); }
  const SwitchGeometry* drawn_switch() const { return ring_.drawn_switch(); }
  const ShownState& shown_state();
  int selected_gpu() const { return selected_gpu_; }
  const ControlsBar& controls() const { return controls_; }

  // Which view fills the centre (ring, memory, training, compare): the tab bar, --view and a
  // lesson scene's first view choose it.
  void set_centre_view(CentreView view) { views_.set_current(view); }
  CentreViews& views() { return views_; }

 private:
  // What the panels read this frame: built afresh for each, since a panel drawn earlier in the
  // frame may have moved the playback or changed the look.
  FrameContext frame_context() const;
  ViewContext view_context();
  void handle_keys();
  void draw_centre();  // the view tabs, then the caption and ring or another view
  void draw_memory_with_ring(const Rect& area);
  bool draw_replay_header();  // the setup panel's header hook
  std::string measured_caption_line() const;
  // A notice when the collective just built wraps an integer reduction (once per collective).
  void note_integer_overflow();

  std::vector<FrameExtension*> extensions_;
  CentreView opening_view_;                   // the request's view, shown again once the replay opened
  std::optional<ReplaySource> opening_replay_;  // taken by init()
  std::optional<CollectivePlan> opening_plan_;  // the request's collective, planned; taken by init()
  SessionModel model_;
  Playback playback_;
  Preferences preferences_;
  Language language_ = Language::en;
  Host host_;
  BackgroundFills fills_;  // solid backgrounds as clears (cheap on software GL)
  SetupPanel setup_;
  CentreViews views_;
  CaptionPanel caption_;
  RingView ring_;
  TransfersPanel transfers_;
  TrafficPanel traffic_;
  ControlsBar controls_;
  HelpWindow help_;
  ReplaySource replay_;
  ReplayPanel replay_panel_;
  TimelinePanel timeline_;
  Config live_config_;                    // what close_replay() returns to
  BackendChoice live_backend_ = BackendChoice::automatic;
  std::vector<std::string> notices_;
  std::string overflow_notice_;  // the last integer-overflow notice given, empty when none
  PanelLayout panels_;
  float content_scale_ = 1.0f;
  bool presentation_ = false;
  float presentation_scale_ = 1.0f;
  bool stage_ = false;
  bool transparent_ = false;
  int selected_gpu_ = kNoSelection;
};

}  // namespace ringviz::gui
