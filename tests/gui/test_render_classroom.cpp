// Headless frames of the classroom modes: Chinese UI, the fallback to English without the
// Chinese font, presentation mode and predict mode.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "render_harness.h"

using namespace ringviz::gui_test;

namespace {

struct Area {
  double x, y, w, h;
};
Area area(const nlohmann::json& rect) {
  return {rect["x"].get<double>(), rect["y"].get<double>(), rect["w"].get<double>(), rect["h"].get<double>()};
}

// Pixels inside `a` that differ between two frames of the same size.
int differing_pixels(const Frame& one, const Frame& two, Area a) {
  int count = 0;
  for (int y = static_cast<int>(a.y); y < static_cast<int>(a.y + a.h); ++y)
    for (int x = static_cast<int>(a.x); x < static_cast<int>(a.x + a.w); ++x)
      if (!close(one.pixel(x, y), two.pixel(x, y), 8)) ++count;
  return count;
}

}  // namespace

TEST_CASE("the GUI starts in Chinese with --lang zh, and its setup panel reads differently from English") {
  const Frame en = render({"--size", "1600x900", "--lang", "en"});
  const Frame zh = render({"--size", "1600x900", "--lang", "zh"});
  CHECK(en.layout["language"] == "en");
  CHECK(zh.layout["language"] == "zh");
  CHECK(zh.layout["notices"].empty());
  // Same layout and cells: only the text differs.
  CHECK(zh.layout["panels"] == en.layout["panels"]);
  CHECK(zh.layout["gpus"] == en.layout["gpus"]);
  const Area setup = area(en.layout["panels"]["setup"]);
  CHECK(differing_pixels(en, zh, setup) > 2000);
}

TEST_CASE("without the Chinese font, --lang zh says so and shows English, exiting 0") {
  const std::string json = (scratch_dir() / "no-font.json").string();
  const Run run = run_ringviz({"--headless", "--lang", "zh", "--size", "1200x700", "--dump-layout", json},
                              {{"RINGVIZ_CJK_FONT", "/nonexistent/ringviz-test/wqy-microhei.ttc"}});
  INFO("ringviz printed: " << run.output);
  REQUIRE(run.exit_code == 0);
  std::ifstream in(json);
  const nlohmann::json layout = nlohmann::json::parse(in);
  CHECK(layout["language"] == "en");
  REQUIRE(layout["notices"].size() == 1);
  const std::string notice = layout["notices"][0].get<std::string>();
  CHECK(notice.find("/nonexistent/ringviz-test/wqy-microhei.ttc") != std::string::npos);
  CHECK(notice.find("fonts-wqy-microhei") != std::string::npos);
}

TEST_CASE("presentation mode hides the setup panel, widens the ring view and uses the high-contrast theme") {
  const Frame normal = render({"--size", "1600x900"}, Capture::layout_only);
  const Frame present = render({"--size", "1600x900", "--present"});
  CHECK(present.layout["presentation"] == true);
  CHECK(present.layout["theme"] == "high-contrast");
  CHECK(present.layout["panels"]["setup"]["w"] == 0);
  CHECK(present.layout["panels"]["view"]["w"].get<double>() > normal.layout["panels"]["view"]["w"].get<double>());
  CHECK(present.layout["ui_scale"].get<double>() == doctest::Approx(2.0));
  // The ring view's background is black; the GPU boxes are bigger than in the normal layout.
  const Area view = area(present.layout["panels"]["view"]);
  CHECK(close(present.pixel_at(view.x + 4, view.y + view.h - 4), {0, 0, 0}, 2));
  CHECK(present.layout["gpus"][0]["box"]["w"].get<double>() > normal.layout["gpus"][0]["box"]["w"].get<double>());
  SUBCASE("--present-scale sets the size, within 1.5x to 3x") {
    const Frame big = render({"--size", "1600x900", "--present", "--present-scale", "3"}, Capture::layout_only);
    CHECK(big.layout["ui_scale"].get<double>() == doctest::Approx(3.0));
    CHECK(run_ringviz({"--headless", "--present", "--present-scale", "5"}).exit_code == 2);
  }
  SUBCASE("in Chinese too") {
    const Frame zh = render({"--size", "1600x900", "--present", "--lang", "zh"}, Capture::layout_only);
    CHECK(zh.layout["language"] == "zh");
    CHECK(zh.layout["panels"] == present.layout["panels"]);
  }
}

TEST_CASE("predict mode draws its question over the ring view without moving anything") {
  const Frame plain = render({"--size", "1600x900"});
  const Frame predict = render({"--size", "1600x900", "--predict"});
  CHECK(predict.layout["gpus"] == plain.layout["gpus"]);
  CHECK(predict.layout["position"] == 0);
  // The banner sits over the ring view (inside the ring when it fits).
  const Area view = area(plain.layout["panels"]["view"]);
  CHECK(differing_pixels(plain, predict, view) > 1000);
}

// Every view and tab in Chinese: no character of the UI language's text lacks a glyph
// (missing_glyphs, checked by string) and no frame drew the fallback glyph (counted in the
// frame's draw data), so nothing shows up as "?".
TEST_CASE("every view in Chinese draws every character with a real glyph") {
  const std::filesystem::path settings = scratch_dir() / "zh-help-settings.json";
  std::ofstream(settings) << R"({"show_help": true})";
  const std::vector<std::vector<std::string>> views = {
      {},
      {"--view", "memory"},
      {"--view", "memory", "--memory-model", "llama3-8b"},
      {"--view", "training"},
      {"--view", "compare"},
      {"--view", "compare", "--compare-topology", "nodes-rail"},
      {"--view", "compare", "--compare-topology", "pcie"},
      {"--view", "devices"},
      {"--slices", "2", "--channels", "2"},
      {"--present"},
      {"--predict"},
      {"--settings", settings.string()},
  };
  for (const auto& view : views) {
    std::vector<std::string> arguments = {"--size", "1600x900", "--lang", "zh"};
    arguments.insert(arguments.end(), view.begin(), view.end());
    std::string shown;
    for (const std::string& a : view) shown += a + " ";
    CAPTURE(shown);
    const Frame zh = render(arguments, Capture::layout_only);
    if (zh.layout.is_null()) continue;  // render() reported why
    CHECK(zh.layout["language"] == "zh");
    CHECK(zh.layout["missing_glyphs"] == nlohmann::json::array());
    // -1 would mean the atlas has no U+FFFD, so the count cannot be made (no Chinese font).
    CHECK(zh.layout["fallback_glyphs_drawn"] == 0);
  }
}

TEST_CASE("the saved language opens the GUI, and --lang overrides it") {
  const std::filesystem::path settings = scratch_dir() / "zh-language-settings.json";
  std::ofstream(settings) << R"({"language": "zh"})";
  const Frame saved = render({"--size", "800x600", "--settings", settings.string()}, Capture::layout_only);
  CHECK(saved.layout["language"] == "zh");
  const Frame overridden = render({"--size", "800x600", "--settings", settings.string(), "--lang", "en"}, Capture::layout_only);
  CHECK(overridden.layout["language"] == "en");
}
