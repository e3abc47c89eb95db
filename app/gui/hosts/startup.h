#pragma once
#include <optional>
#include <string>

#include "app/gui/hosts/gui_options.h"
#include "app/gui/state/preferences.h"
#include "core/model/config.h"

namespace ringviz::gui {

// Preferences for this run: from the settings file (interactive runs, or when --settings is
// given), then --theme and --palette on top. `path` is where to save them (nullopt: don't).
// `language` is the UI language this run opens in: --lang when given, else the saved one. It is
// kept apart from preferences.language, which stays the saved choice, so that a one-off --lang
// is never written back to the settings file (only L or the language menu change it there).
struct StartupPreferences {
  Preferences preferences;
  Language language = Language::en;
  std::optional<std::string> path;
  std::string notice;
};
StartupPreferences startup_preferences(const GuiFlags& flags, bool headless);

// --round as a timeline position, checked against the length of the timeline it drives: the
// collective's rounds, or the beats of the Memory tab's iteration (`iteration_beats`).
double parse_round(const std::string& text, int rounds, bool iteration_beats = false);

// --backend cuda where CUDA cannot run is bad input (InputError, exit 2), said before any window
// or GL context exists rather than as a failed start.
void require_backend(BackendChoice backend);

}  // namespace ringviz::gui
