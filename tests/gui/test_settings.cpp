// The settings file: round trip, and a corrupt file gives defaults plus a notice.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <unistd.h>

#include "app/gui/runtime/settings.h"

using namespace ringviz::gui;

namespace {

std::string temp_file(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("ringviz-settings-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

}  // namespace

TEST_CASE("preferences survive a save and a load") {
  const std::string path = temp_file("nested/settings.json");
  Preferences p;
  p.theme = ThemeKind::light;
  p.palette = PaletteKind::colour_blind;
  p.speed = 2.0;
  p.loop = true;
  p.text_scale = 1.5f;
  p.window_width = 1280;
  p.window_height = 800;
  std::string error;
  REQUIRE(save_preferences(path, p, error));
  const LoadedPreferences loaded = load_preferences(path);
  CHECK(loaded.notice.empty());
  CHECK(loaded.preferences == p);
  std::filesystem::remove_all(std::filesystem::path(path).parent_path().parent_path());
}

TEST_CASE("a missing file gives defaults quietly, a corrupt one defaults and a notice") {
  CHECK(load_preferences(temp_file("does-not-exist.json")).notice.empty());
  for (const char* contents : {"{not json", "[1, 2]", "{\"theme\": \"purple\"}", "{\"speed\": \"fast\"}"}) {
    CAPTURE(contents);
    const std::string path = temp_file("corrupt.json");
    std::ofstream(path) << contents;
    const LoadedPreferences loaded = load_preferences(path);
    CHECK_FALSE(loaded.notice.empty());
    CHECK(loaded.preferences == Preferences{});
  }
  std::filesystem::remove_all(std::filesystem::path(temp_file("x")).parent_path());
}

TEST_CASE("RINGVIZ_SETTINGS points elsewhere or turns persistence off") {
  ::setenv("RINGVIZ_SETTINGS", "off", 1);
  CHECK_FALSE(default_settings_path().has_value());
  ::setenv("RINGVIZ_SETTINGS", "/tmp/elsewhere.json", 1);
  CHECK(default_settings_path().value() == "/tmp/elsewhere.json");
  ::unsetenv("RINGVIZ_SETTINGS");
  ::setenv("XDG_CONFIG_HOME", "/tmp/xdg", 1);
  CHECK(default_settings_path().value() == "/tmp/xdg/ringviz/settings.json");
}

TEST_CASE("a damaged settings file's notice names the file, the line:column and the field") {
  const std::string path = temp_file("typed.json");
  std::ofstream(path) << "{\"theme\": \"dark\",\n \"window\": {\"width\": \"wide\", \"height\": 800}}";
  const LoadedPreferences loaded = load_preferences(path);
  CHECK(loaded.notice.find(path + ":2:22: window/width: expected a number, got a string") != std::string::npos);
  CHECK(loaded.preferences == Preferences{});

  std::ofstream(path) << "{\"speed\": 1e400}";
  CHECK(load_preferences(path).notice.find(path + ":1:11: 1e400 is too large") != std::string::npos);
  std::ofstream(path) << std::string(10000, '[') + std::string(10000, ']');
  CHECK(load_preferences(path).notice.find("nested more than 64 levels") != std::string::npos);
  std::filesystem::remove_all(std::filesystem::path(temp_file("x")).parent_path());
}

TEST_CASE("a folder as the settings file gives defaults and a notice that says so") {
  const std::string folder = temp_file("folder");
  std::filesystem::create_directories(folder);
  const LoadedPreferences loaded = load_preferences(folder);
  CHECK(loaded.notice.find("is a directory") != std::string::npos);
  std::filesystem::remove_all(std::filesystem::path(folder).parent_path());
}

TEST_CASE("a settings value out of its range keeps the default for that field only, with a notice naming it") {
  const std::string path = temp_file("absurd.json");
  std::ofstream(path) << "{\"theme\": \"light\", \"text_scale\": 1e308,\n \"speed\": -1, \"loop\": true}";
  const LoadedPreferences loaded = load_preferences(path);
  CHECK(loaded.notice.find(path + ":1:34: text_scale: 1e308 is out of range (0.75 to 3); using the default 1") !=
        std::string::npos);
  CHECK(loaded.notice.find(path + ":2:11: speed: -1 is out of range (0.25 to 8); using the default 1") != std::string::npos);
  CHECK(loaded.preferences.theme == ThemeKind::light);
  CHECK(loaded.preferences.loop);
  CHECK(loaded.preferences.text_scale == Preferences{}.text_scale);
  CHECK(loaded.preferences.speed == Preferences{}.speed);

  std::ofstream(path) << "{\"text_scale\": 0, \"window\": {\"width\": 1e9, \"height\": -5}}";
  const LoadedPreferences window = load_preferences(path);
  CHECK(window.notice.find("text_scale: 0 is out of range") != std::string::npos);
  CHECK(window.notice.find("window/width: 1e9 is out of range (1 to 16384)") != std::string::npos);
  CHECK(window.notice.find("window/height: -5 is out of range (1 to 16384)") != std::string::npos);
  CHECK(window.preferences == Preferences{});
  std::filesystem::remove_all(std::filesystem::path(temp_file("x")).parent_path());
}

TEST_CASE("an unknown settings key is ignored with a notice, and thousands of them make one short notice") {
  const std::string path = temp_file("newer.json");
  std::ofstream(path) << "{\"speed\": 2, \"colour_mode\": \"x\", \"window\": {\"width\": 800, \"height\": 600, \"dpi\": 2}}";
  const LoadedPreferences loaded = load_preferences(path);
  CHECK(loaded.notice.find(path + ":1:29: colour_mode: unknown field, ignored") != std::string::npos);
  CHECK(loaded.notice.find("window/dpi: unknown field, ignored") != std::string::npos);
  CHECK(loaded.preferences.speed == 2.0);
  CHECK(loaded.preferences.window_width == 800);

  std::string many = "{";
  for (int i = 0; i < 5000; ++i) many += (i ? ",\"k" : "\"k") + std::to_string(i) + "\": 1";
  std::ofstream(path) << many + "}";
  const std::string notice = load_preferences(path).notice;
  CHECK(notice.find("; and 4997 more") != std::string::npos);
  CHECK(notice.size() < 600);
  std::filesystem::remove_all(std::filesystem::path(temp_file("x")).parent_path());
}

TEST_CASE("the UI language is saved and restored, and an unknown one gives the defaults with a notice") {
  const std::string path = temp_file("language.json");
  Preferences p;
  p.language = ringviz::Language::zh;
  std::string error;
  REQUIRE(save_preferences(path, p, error));
  {
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text.find("\"language\": \"zh\"") != std::string::npos);
  }
  LoadedPreferences loaded = load_preferences(path);
  CHECK(loaded.notice.empty());
  CHECK(loaded.preferences.language == ringviz::Language::zh);
  std::ofstream(path) << R"({"language": "fr"})";
  loaded = load_preferences(path);
  CHECK(loaded.preferences.language == ringviz::Language::en);
  CHECK(loaded.notice.find("/language") != std::string::npos);
  CHECK(loaded.notice.find("'fr' is not a language") != std::string::npos);
  // An older file without the key opens in English.
  std::ofstream(path) << R"({"theme": "dark"})";
  loaded = load_preferences(path);
  CHECK(loaded.notice.empty());
  CHECK(loaded.preferences.language == ringviz::Language::en);
  std::filesystem::remove(path);
}

TEST_CASE("a settings file with a repeated key is refused, naming the key and its line, and the defaults are used") {
  const std::string path = temp_file("repeated.json");
  std::ofstream(path) << "{\n  \"theme\": \"light\",\n  \"speed\": 2,\n  \"theme\": \"dark\"\n}\n";
  const LoadedPreferences loaded = load_preferences(path);
  CHECK(loaded.notice == "settings file " + path +
                             ":4:3: the key \"theme\" appears twice in one object (first on line 2); keep one; using the "
                             "defaults instead");
  CHECK(loaded.preferences == Preferences{});
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}
