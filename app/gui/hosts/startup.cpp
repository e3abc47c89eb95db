#include "app/gui/hosts/startup.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "app/backend/backend_select.h"
#include "app/gui/runtime/settings.h"
#include "core/model/config.h"
#include "core/model/text.h"

namespace ringviz::gui {

StartupPreferences startup_preferences(const GuiFlags& flags, bool headless) {
  StartupPreferences result;
  // Headless frames must not depend on what someone chose in their own GUI last week.
  if (!flags.settings.empty()) {
    if (flags.settings != "off" && flags.settings != "none") result.path = flags.settings;
  } else if (!headless) {
    result.path = default_settings_path();
  }
  std::error_code ignored;
  if (!flags.settings.empty() && result.path && std::filesystem::is_directory(*result.path, ignored))
    throw InputError("--settings: " + escape_for_message(*result.path) + " is a directory; give a settings file, or 'off'");
  // A FIFO or a device would block or never end (docs/architecture.md, "Reading input files").
  if (!flags.settings.empty() && result.path && std::filesystem::exists(*result.path, ignored) &&
      !std::filesystem::is_regular_file(*result.path, ignored))
    throw InputError("--settings: " + escape_for_message(*result.path) +
                     " is not a regular file (a FIFO or a device); give a settings file, or 'off'");
  if (result.path) {
    LoadedPreferences loaded = load_preferences(*result.path);
    result.preferences = loaded.preferences;
    result.notice = loaded.notice;
  }
  if (!flags.theme.empty()) parse_theme(flags.theme, result.preferences.theme);
  if (!flags.palette.empty()) parse_palette(flags.palette, result.preferences.palette);
  // The saved language opens the GUI; an explicit --lang wins for this run only.
  result.language = flags.lang.empty() ? result.preferences.language : parse_language(flags.lang, "--lang");
  return result;
}

double parse_round(const std::string& text, int rounds, bool iteration_beats) {
  if (text.empty()) return 0;
  char* end = nullptr;
  const double position = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(position))
    throw InputError("--round: '" + text + "' is not a number (e.g. 2, or 2.5 for halfway through round 3)");
  if (position < 0 || position > rounds) {
    std::ostringstream message;
    message << "--round: " << text << " is out of range (0 to " << rounds
            << (iteration_beats ? ", the beats of the Memory tab's iteration)" : ", the number of rounds of this collective)");
    throw InputError(message.str());
  }
  return position;
}

void require_backend(BackendChoice backend) {
  // Only `cuda` can be refused; the backend made here is dropped, the session makes its own.
  if (backend == BackendChoice::cuda) select_backend(backend);
}

}  // namespace ringviz::gui
