#include "app/gui/runtime/settings.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/gui/runtime/playback.h"
#include "core/io/output_file.h"

namespace ringviz::gui {

namespace {

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0' ? value : nullptr;
}

}  // namespace

std::optional<std::string> default_settings_path() {
  if (const char* explicit_path = env("RINGVIZ_SETTINGS")) {
    const std::string path = explicit_path;
    if (path == "off" || path == "none") return std::nullopt;
    return path;
  }
  if (const char* xdg = env("XDG_CONFIG_HOME")) return std::string(xdg) + "/ringviz/settings.json";
  if (const char* home = env("HOME")) return std::string(home) + "/.config/ringviz/settings.json";
  return std::nullopt;
}

LoadedPreferences load_preferences(const std::string& path) {
  LoadedPreferences loaded;
  std::ifstream file(path);
  if (!file) return loaded;  // first run: nothing saved yet
  Preferences& p = loaded.preferences;
  try {
    const nlohmann::json json = nlohmann::json::parse(file);
    if (!json.is_object()) throw std::runtime_error("not a JSON object");
    // Each field is optional and checked on its own, so an older or hand-edited file keeps
    // whatever is still valid.
    if (json.contains("theme") && !parse_theme(json["theme"].get<std::string>(), p.theme))
      throw std::runtime_error("unknown theme");
    if (json.contains("palette") && !parse_palette(json["palette"].get<std::string>(), p.palette))
      throw std::runtime_error("unknown palette");
    if (json.contains("speed")) p.speed = std::clamp(json["speed"].get<double>(), kMinSpeed, kMaxSpeed);
    if (json.contains("loop")) p.loop = json["loop"].get<bool>();
    if (json.contains("text_scale")) p.text_scale = std::clamp(json["text_scale"].get<float>(), 0.75f, 3.0f);
    if (json.contains("show_help")) p.show_help = json["show_help"].get<bool>();
    if (json.contains("window")) {
      p.window_width = std::clamp(json["window"].at("width").get<int>(), 640, 16384);
      p.window_height = std::clamp(json["window"].at("height").get<int>(), 400, 16384);
    }
  } catch (const std::exception& problem) {
    loaded.preferences = Preferences{};
    loaded.notice = "settings file " + path + " could not be read (" + problem.what() +
                    "); using defaults, and it will be rewritten on exit";
  }
  return loaded;
}

bool save_preferences(const std::string& path, const Preferences& p, std::string& error) {
  const nlohmann::json json = {
      {"theme", std::string(theme_name(p.theme))},
      {"palette", std::string(palette_name(p.palette))},
      {"speed", p.speed},
      {"loop", p.loop},
      {"text_scale", p.text_scale},
      {"show_help", p.show_help},
      {"window", {{"width", p.window_width}, {"height", p.window_height}}},
  };
  std::error_code ignored;
  const std::filesystem::path file(path);
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ignored);
  // A crash or a full disk mid-write never leaves a corrupt file: the old one stays.
  return write_output_file(file, json.dump(2) + "\n", error);
}

}  // namespace ringviz::gui
