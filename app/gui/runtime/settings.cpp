#include "app/gui/runtime/settings.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/gui/state/playback.h"
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
constexpr double kMaxWindowSide = 16384;

// The settings document and where its values sit, so that a bad field is named by position.
class SettingsReader {
 public:
  SettingsReader(std::string text, std::string source)
      : text_(std::move(text)), source_(std::move(source)), json_(parse_json_input(text_, source_)) {}

  const nlohmann::json& json() const { return json_; }

  [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const {
    throw InputError(located(pointer, problem));
  }

  // A problem that costs one field only: the rest of the file still counts. Only the first
  // few are placed and worded; a file of ten thousand unknown keys is one line, not ten thousand.
  void note(const std::string& pointer, const std::string& problem) const {
    if (notices_.size() < kMaxWordedNotices) notices_.push_back(located(pointer, problem));
    ++notice_count_;
  }

  // "<first notices>; and N more", empty when all was well.
  std::string notices() const {
    std::string joined;
    for (const std::string& notice : notices_) joined += (joined.empty() ? "" : "; ") + notice;
    if (notice_count_ > notices_.size())
      joined += "; and " + std::to_string(notice_count_ - notices_.size()) + " more";
    return joined;
  }

  // The number at `pointer` when it lies in [low, high]. Outside, a notice and nothing, so the
  // field keeps its default instead of a silently clamped 1e308 (docs/architecture.md,
  // "Reading input files").
  std::optional<double> number_in_range(const std::string& pointer, double low, double high, double fallback) const {
    const nlohmann::json* value = number(pointer);
    if (!value) return std::nullopt;
    const double real = value->get<double>();
    if (real >= low && real <= high) return real;
    std::ostringstream problem;
    const std::size_t start = json_value_offset(text_, pointer);
    const std::string_view written = std::string_view(text_).substr(start, text_.find_first_of(",}] \t\r\n", start) - start);
    problem << shortened_for_message(written) << " is out of range (" << low << " to " << high
            << "); using the default " << fallback;
    note(pointer, problem.str());
    return std::nullopt;
  }

  // A key this version does not know may come from a newer one: noted, never fatal.
  void note_unknown_keys(const std::string& pointer, std::initializer_list<std::string_view> known) const {
    const nlohmann::json& object = pointer.empty() ? json_ : json_.at(nlohmann::json::json_pointer(pointer));
    for (const auto& [key, value] : object.items())
      if (std::find(known.begin(), known.end(), key) == known.end())
        note(pointer + "/" + pointer_token(key), "unknown field, ignored (a newer ringviz may have written it)");
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
  static constexpr std::size_t kMaxWordedNotices = 3;

  std::string located(const std::string& pointer, const std::string& problem) const {
    const std::string field = pointer.empty() ? "top level" : shortened_for_message(pointer.substr(1));
    return json_value_position(text_, source_, pointer) + ": " + field + ": " + problem;
  }

  static std::string pointer_token(const std::string& key) {
    std::string token;
    for (const char c : key) token += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return token;
  }

  static std::string kind_of(const nlohmann::json& value) {
    if (value.is_null()) return "null";
    const std::string name = value.type_name();
    return (name.front() == 'a' || name.front() == 'o' ? "an " : "a ") + name;
  }

  std::string text_;
  std::string source_;
  nlohmann::json json_;
  mutable std::vector<std::string> notices_;
  mutable std::size_t notice_count_ = 0;
};

// Each field is optional and checked on its own, so an older or hand-edited file keeps
// whatever is still valid. A file that is not what ringviz writes (wrong kinds, a missing
// half of the window) throws InputError naming the field's position; a value out of range or
// an unknown key only costs that field, with a notice.
Preferences read_preferences(const SettingsReader& reader) {
  if (!reader.json().is_object()) reader.fail("", "expected an object");
  reader.note_unknown_keys("", {"theme", "palette", "speed", "loop", "text_scale", "show_help", "window", "language"});
  Preferences p;
  if (const std::string* theme = reader.text("/theme"); theme && !parse_theme(*theme, p.theme))
    reader.fail("/theme", "'" + shortened_for_message(*theme) + "' is not a theme");
  if (const std::string* palette = reader.text("/palette"); palette && !parse_palette(*palette, p.palette))
    reader.fail("/palette", "'" + shortened_for_message(*palette) + "' is not a palette");
  if (const auto speed = reader.number_in_range("/speed", kMinSpeed, kMaxSpeed, p.speed)) p.speed = *speed;
  if (const auto* loop = reader.boolean("/loop")) p.loop = loop->get<bool>();
  if (const auto scale = reader.number_in_range("/text_scale", 0.75, 3.0, p.text_scale))
    p.text_scale = static_cast<float>(*scale);
  if (const auto* help = reader.boolean("/show_help")) p.show_help = help->get<bool>();
  // The same table as --lang (core/model/text.h), looked up without throwing, as theme and palette.
  if (const std::string* language = reader.text("/language");
      language && !find_enum(kLanguageNames, *language, p.language))
    reader.fail("/language", "'" + shortened_for_message(*language) + "' is not a language (en or zh)");
  if (reader.json().contains("window")) {
    if (!reader.json()["window"].is_object()) reader.fail("/window", "expected an object with width and height");
    reader.note_unknown_keys("/window", {"width", "height"});
    const auto* width = reader.number("/window/width");
    const auto* height = reader.number("/window/height");
    if (!width || !height) reader.fail("/window", "needs both width and height");
    // Any size a window can have is in range; the window may have been resized below the
    // smallest size it opens at, which is raised quietly as before.
    const auto in_width = reader.number_in_range("/window/width", 1, kMaxWindowSide, p.window_width);
    const auto in_height = reader.number_in_range("/window/height", 1, kMaxWindowSide, p.window_height);
    if (in_width && in_height) {
      p.window_width = static_cast<int>(std::max(*in_width, 640.0));
      p.window_height = static_cast<int>(std::max(*in_height, 400.0));
    }
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
    loaded.notice = escape_for_message(reader.notices());
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
      {"language", std::string(language_name(p.language))},
  };
  std::error_code ignored;
  const std::filesystem::path file(path);
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ignored);
  // A crash or a full disk mid-write never leaves a corrupt file: the old one stays.
  return write_output_file(file, json.dump(2) + "\n", error);
}

}  // namespace ringviz::gui
