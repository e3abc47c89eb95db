#include "app/gui/runtime/settings.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "app/gui/runtime/playback.h"
#include "core/output/output_file.h"
#include "core/input/json_input.h"
#include "core/model/input_error.h"
#include "core/model/text.h"

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

namespace {

// A file of a few hundred bytes; anything much larger is not one ringviz wrote.
constexpr std::uintmax_t kMaxSettingsBytes = 64 * 1024;

// The settings document and where its values sit, so that a bad field is named by position.
class SettingsReader {
 public:
  SettingsReader(std::string text, std::string source)
      : text_(std::move(text)), source_(std::move(source)), json_(parse_json_input(text_, source_)) {}

  const nlohmann::json& json() const { return json_; }

  [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const {
    const std::string field = pointer.empty() ? "top level" : pointer.substr(1);
    throw InputError(json_value_position(text_, source_, pointer) + ": " + field + ": " + problem);
  }

  // The member at `pointer` ("/window/width") when present and of the kind `is_kind` accepts.
  template <class IsKind>
  const nlohmann::json* member(const std::string& pointer, IsKind is_kind, const char* expected) const {
    const nlohmann::json::json_pointer where(pointer);
    if (!json_.contains(where)) return nullptr;
    const nlohmann::json& value = json_.at(where);
    if (!is_kind(value)) fail(pointer, std::string("expected ") + expected + ", got " + kind_of(value));
    return &value;
  }

  const nlohmann::json* number(const std::string& pointer) const {
    return member(pointer, [](const nlohmann::json& v) { return v.is_number(); }, "a number");
  }
  const nlohmann::json* boolean(const std::string& pointer) const {
    return member(pointer, [](const nlohmann::json& v) { return v.is_boolean(); }, "true or false");
  }
  const std::string* text(const std::string& pointer) const {
    const nlohmann::json* value = member(pointer, [](const nlohmann::json& v) { return v.is_string(); }, "a string");
    return value ? &value->get_ref<const std::string&>() : nullptr;
  }

 private:
  static std::string kind_of(const nlohmann::json& value) {
    if (value.is_null()) return "null";
    const std::string name = value.type_name();
    return (name.front() == 'a' || name.front() == 'o' ? "an " : "a ") + name;
  }

  std::string text_;
  std::string source_;
  nlohmann::json json_;
};

// Each field is optional and checked on its own, so an older or hand-edited file keeps
// whatever is still valid; any problem throws InputError naming the field's position.
Preferences read_preferences(const SettingsReader& reader) {
  if (!reader.json().is_object()) reader.fail("", "expected an object");
  Preferences p;
  if (const std::string* theme = reader.text("/theme"); theme && !parse_theme(*theme, p.theme))
    reader.fail("/theme", "'" + *theme + "' is not a theme");
  if (const std::string* palette = reader.text("/palette"); palette && !parse_palette(*palette, p.palette))
    reader.fail("/palette", "'" + *palette + "' is not a palette");
  if (const auto* speed = reader.number("/speed")) p.speed = std::clamp(speed->get<double>(), kMinSpeed, kMaxSpeed);
  if (const auto* loop = reader.boolean("/loop")) p.loop = loop->get<bool>();
  if (const auto* scale = reader.number("/text_scale"))
    p.text_scale = static_cast<float>(std::clamp(scale->get<double>(), 0.75, 3.0));
  if (const auto* help = reader.boolean("/show_help")) p.show_help = help->get<bool>();
  if (reader.json().contains("window")) {
    if (!reader.json()["window"].is_object()) reader.fail("/window", "expected an object with width and height");
    const auto* width = reader.number("/window/width");
    const auto* height = reader.number("/window/height");
    if (!width || !height) reader.fail("/window", "needs both width and height");
    p.window_width = static_cast<int>(std::clamp(width->get<double>(), 640.0, 16384.0));
    p.window_height = static_cast<int>(std::clamp(height->get<double>(), 400.0, 16384.0));
  }
  return p;
}

}  // namespace

LoadedPreferences load_preferences(const std::string& path) {
  LoadedPreferences loaded;
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored)) return loaded;  // first run: nothing saved yet
  try {
    const SettingsReader reader(read_input_text(path, "settings file", kMaxSettingsBytes),
                                "settings file " + escape_for_message(path));
    loaded.preferences = read_preferences(reader);
  } catch (const InputError& problem) {
    loaded.preferences = Preferences{};
    loaded.notice = escape_for_message(problem.what()) + "; using the defaults instead";
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
