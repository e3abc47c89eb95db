#pragma once
// The setup panel: every field of the Config, applied as soon as it changes; the backend; and
// the look (theme, rank colours, text size). Scrolled in a short window, it shows whole lines only.
#include <functional>
#include <string>
#include <utility>

#include "app/gui/layout/geometry.h"
#include "app/gui/panels/value_table.h"
#include "app/gui/panels/whole_lines.h"
#include "app/gui/state/preferences.h"
#include "app/gui/state/session_model.h"
#include "core/model/config.h"

namespace ringviz::gui {

// What the setup panel asks of the GUI around it while it draws.
struct SetupPanelHooks {
  // Rebuilds the session for a config and backend (GuiApp::apply_config), which reports back
  // through accepted() or rejected(); false when it was rejected. Runs at once, so the rest of
  // the panel already shows the new session.
  std::function<bool(const Config&, BackendChoice)> apply;
  // Draws the extensions' own settings at the end of the panel.
  std::function<void()> extension_settings;
  // Draws above the config (the Open control, a replay's summary); true locks the config,
  // which then shows a recorded run's.
  std::function<bool()> header;
};

class SetupPanel {
 public:
  SetupPanel(Config draft, BackendChoice backend) : draft_(std::move(draft)), backend_(backend) {}

  // What the panel edits: the config and backend the session last accepted (at first, the
  // ones the GUI opened with).
  const Config& draft() const { return draft_; }
  BackendChoice backend() const { return backend_; }
  // Whoever applied a config (this panel, a key, a view, a lesson) reports the outcome here.
  void accepted(const Config& config, BackendChoice backend);
  void rejected(std::string error) { error_ = std::move(error); }
  // `config` switched between the source article's lock-step rounds (slices = channels = 1) and the
  // pipelined ring, which gets back the slices and channels it last had (the setup panel's
  // toggle and the S key).
  Config with_pipeline_toggled(const Config& config) const;

  // `preferences`: the theme, palette and text size, which the panel's View section edits.
  void draw(const Rect& area, const SessionModel& model, Preferences& preferences, Language language,
            const SetupPanelHooks& hooks);

 private:
  Config draft_;
  BackendChoice backend_;
  std::string error_;  // why the last config was rejected; empty once one is accepted
  // The pipelined shape to return to from lock-step: the last one accepted, at first 4 slices
  // on 2 channels (the smallest that shows both lanes and a pipeline's fill and drain).
  int pipelined_slices_ = 4;
  int pipelined_channels_ = 2;
  ValueTable values_;
  WholeLines lines_;  // in a short window the panel scrolls, showing whole lines only
};

}  // namespace ringviz::gui
