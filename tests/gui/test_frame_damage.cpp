// FrameDamage: redrawing only the rectangles whose draw lists changed must give the very
// pixels a whole redraw gives, frame after frame, while the ring plays, rounds change, the
// ring size and the theme change (docs/architecture.md, "Frame time").
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include "app/gui/render/frame_damage.h"
#include "app/gui/render/theme.h"
#include "app/gui/runtime/frame_host.h"
#include "app/gui/runtime/gui_app.h"
#include "app/platform/gl.h"
#include "app/platform/offscreen_target.h"
#include "frame_pixels.h"
#include "view_sizes_surface.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz::gui {
namespace {

TEST_CASE("frame damage: scissor boxes as ImGui's OpenGL3 backend computes them") {
  // Whole pixels stay whole.
  CHECK(scissor_pixels(10, 20, 110, 70, 900) == PixelRect{10, 20, 110, 70});
  // Fractions truncate the way the backend's int casts do: x and the width, the row from the bottom and the height.
  CHECK(scissor_pixels(10.5f, 20.5f, 110.25f, 70.75f, 900) == PixelRect{10, 21, 109, 71});
  CHECK(scissor_pixels(5, 5, 5, 50, 900).empty());
}

TEST_CASE("frame damage: overlapping rectangles merge, disjoint ones stay apart, too many become one") {
  const std::vector<PixelRect> merged = merge_rects({{0, 0, 10, 10}, {5, 5, 20, 20}, {50, 50, 60, 60}, {}}, 4);
  REQUIRE(merged.size() == 2);
  CHECK(merged[0] == PixelRect{0, 0, 20, 20});
  CHECK(merged[1] == PixelRect{50, 50, 60, 60});
  const std::vector<PixelRect> capped = merge_rects({{0, 0, 1, 1}, {10, 10, 11, 11}, {20, 20, 21, 21}}, 2);
  REQUIRE(capped.size() == 1);
  CHECK(capped[0] == PixelRect{0, 0, 21, 21});
}

TEST_CASE("frame damage: only lists that changed, moved, appeared or vanished are redrawn") {
  const ListFootprint panel{"Setup", {0, 0, 300, 900}, 1};
  const ListFootprint ring{"##ring", {300, 0, 1200, 800}, 2};
  const ListFootprint help{"Help", {400, 100, 600, 300}, 3};
  CHECK(changed_rects({panel, ring}, {panel, ring}).empty());
  ListFootprint ring_moved = ring;
  ring_moved.content = 4;
  CHECK(changed_rects({panel, ring}, {panel, ring_moved}) == std::vector<PixelRect>{ring.bounds});
  CHECK(changed_rects({panel, ring}, {panel, ring, help}) == std::vector<PixelRect>{help.bounds});
  CHECK(changed_rects({panel, ring, help}, {panel, ring}) == std::vector<PixelRect>{help.bounds});
}

TEST_CASE("frame damage: two unchanged overlapping windows that swap z-order are redrawn") {
  const ListFootprint panel{"Setup", {0, 0, 300, 900}, 1};
  const ListFootprint help{"Help", {400, 100, 600, 300}, 3};
  const ListFootprint about{"About", {500, 200, 700, 400}, 5};
  // Same lists, same pixels each, but About now lies under Help: their overlap must be redrawn.
  const std::vector<PixelRect> swapped = changed_rects({panel, help, about}, {panel, about, help});
  REQUIRE_FALSE(swapped.empty());
  const PixelRect overlap = help.bounds.intersected(about.bounds);
  bool covered = false;
  for (const PixelRect& r : swapped) covered = covered || r.intersected(overlap) == overlap;
  CHECK(covered);
  // The panel kept its place before both: it is not redrawn for their swap.
  for (const PixelRect& r : swapped) CHECK_FALSE(r.overlaps(panel.bounds));
  // A list moved from the bottom to the top past several others.
  CHECK_FALSE(changed_rects({about, panel, help}, {panel, help, about}).empty());
  // The same order again: nothing.
  CHECK(changed_rects({panel, about, help}, {panel, about, help}).empty());
}

TEST_CASE("frame damage: the changed rectangles give the same pixels as a whole redraw") {
  constexpr int kWidth = 1600, kHeight = 900;
  platform::OffscreenTarget& target = test_surface().target;
  std::string error;
  REQUIRE(target.resize(kWidth, kHeight, error));
  platform::OffscreenTarget whole;
  REQUIRE(whole.resize(kWidth, kHeight, error));

  const Config config = ConfigBuilder().ranks(16).count(16);
  FrameHost frames;
  Host host;
  host.interactive = false;
  GuiApp app(ring_request(config), BackendChoice::cpu, Preferences{}, host);
  REQUIRE(frames.start(app).ok());
  app.playback().set_loop(true);
  app.playback().play();

  FrameDamage damage;
  std::int64_t least_redrawn = std::int64_t{kWidth} * kHeight;
  int frames_compared = 0;
  for (int frame = 0; frame < 90; ++frame) {
    CAPTURE(frame);
    if (frame == 45) {  // another ring size: every panel changes at once
      REQUIRE(app.apply_config(ConfigBuilder(config).ranks(8), BackendChoice::cpu));
      app.playback().play();
    }
    if (frame == 70) app.preferences().theme = ThemeKind::light;  // another clear colour
    FrameStep step;
    step.animation_seconds = 0.07;  // a round every 23 frames: packets, flashes and round changes
    frames.build(app, step, kWidth, kHeight);
    const Rgb background = view_colours(app.preferences().theme).view_background;
    const float clear[4] = {background.r / 255.f, background.g / 255.f, background.b / 255.f, 1.0f};
    target.bind();
    glViewport(0, 0, kWidth, kHeight);
    const std::int64_t redrawn = damage.draw(*ImGui::GetDrawData(), kWidth, kHeight, clear);
    if (frame > 0) least_redrawn = std::min(least_redrawn, redrawn);
    const std::vector<std::uint8_t> kept = target.read_rgba();
    const std::vector<std::uint8_t> reference = draw_whole(whole, kWidth, kHeight, clear);
    CHECK(differing_pixels(kept, reference) == 0);
    ++frames_compared;
  }
  CHECK(frames_compared == 90);
  // The point of it: while the ring plays, far from every pixel is redrawn.
  CHECK(least_redrawn < std::int64_t{kWidth} * kHeight / 2);
}

}  // namespace
}  // namespace ringviz::gui
