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
  const Frame normal = render({"--size", "1600x900"});
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
    const Frame big = render({"--size", "1600x900", "--present", "--present-scale", "3"});
    CHECK(big.layout["ui_scale"].get<double>() == doctest::Approx(3.0));
    CHECK(run_ringviz({"--headless", "--present", "--present-scale", "5"}).exit_code == 2);
  }
  SUBCASE("in Chinese too") {
    const Frame zh = render({"--size", "1600x900", "--present", "--lang", "zh"});
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
