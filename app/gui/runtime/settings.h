#pragma once
#include <optional>
#include <string>

#include "app/gui/state/preferences.h"

namespace ringviz::gui {

// Where preferences are kept: $RINGVIZ_SETTINGS when set ("off" disables persistence, which
// tests use), else $XDG_CONFIG_HOME/ringviz/settings.json, else ~/.config/ringviz/settings.json.
// Returns nullopt when persistence is off or no home folder is known.
std::optional<std::string> default_settings_path();

struct LoadedPreferences {
  Preferences preferences;
  std::string notice;  // set when the file existed but could not be used (defaults then)
};

// A missing file gives defaults silently; an unreadable or corrupt one gives defaults and a
// notice; never throws.
LoadedPreferences load_preferences(const std::string& path);
// Creates the folder when needed; false with `error` set when the file cannot be written.
bool save_preferences(const std::string& path, const Preferences& preferences, std::string& error);

}  // namespace ringviz::gui
