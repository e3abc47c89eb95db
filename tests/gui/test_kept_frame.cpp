// KeptFrame, the interactive window's frame (docs/architecture.md, "Frame time"): through a
// kept target copied to the window, or in a back buffer never swapped with only what changed
// shown, it must give the pixels of a whole redraw, frame after frame, through resizes and a
// minimised window, while redrawing far from every pixel.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/render/theme.h"
#include "app/gui/runtime/frame_host.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/runtime/kept_frame.h"
#include "app/platform/glx_sub_buffer.h"
#include "frame_pixels.h"
#include "view_sizes_surface.h"
#include "tests/support/config_builder.h"
// After gl.h (through frame_pixels.h), which must be the one to declare GL's functions.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

using ringviz::test::ConfigBuilder;

namespace ringviz::gui {
namespace {

std::vector<float> clear_colour(const GuiApp& app) {
  const Rgb background = view_colours(app.preferences().theme).view_background;
  return {background.r / 255.f, background.g / 255.f, background.b / 255.f, 1.0f};
}

Host headless_host() {
  Host host;
  host.interactive = false;
  return host;
}

// The GUI over a ring of `config` whose frames each case builds itself; `playing` loops the
// collective, so that every frame changes something.
struct TestGui {
  FrameHost frames;
  GuiApp app;
  TestGui(const Config& config, bool playing)
      : app(ring_request(config), BackendChoice::cpu, Preferences{}, headless_host()) {
    REQUIRE(frames.start(app).ok());
    if (!playing) return;
    app.playback().set_loop(true);
    app.playback().play();
  }
  // One frame of `seconds` of animation at width x height (the panels' layout; nothing drawn).
  void build(int width, int height, double seconds = 0.07) {
    FrameStep step;
    step.animation_seconds = seconds;
    frames.build(app, step, width, height);
  }
};

// A window dragged from one size to another while the ring plays: from frame `first_frame` on,
// the frame is width x height.
struct SizeFrom {
  int first_frame, width, height;
};

// Plays 0 .. frames-1 through `sizes`, a change of theme at `light_from`, each frame drawn by
// `draw_kept` into `shown` (which `prepare` fills as undefined before the frame where the case
// says so) and held against a whole redraw: equal pixels every frame, a new size redrawn whole,
// and some frame redrawing less than half the window.
template <typename Prepare, typename DrawKept>
void play_through_sizes(TestGui& gui, platform::OffscreenTarget& shown, const std::vector<SizeFrom>& sizes,
                        int frame_count, int light_from, Prepare prepare, DrawKept draw_kept) {
  platform::OffscreenTarget whole;
  std::string error;
  int width = 0, height = 0;
  bool some_frame_partial = false;
  for (int frame = 0; frame < frame_count; ++frame) {
    CAPTURE(frame);
    bool resized = false;
    for (const SizeFrom& size : sizes)
      if (size.first_frame == frame) {
        width = size.width;
        height = size.height;
        resized = true;
        REQUIRE(shown.resize(width, height, error));
        REQUIRE(whole.resize(width, height, error));
      }
    CAPTURE(width);
    if (frame == light_from) gui.app.preferences().theme = ThemeKind::light;  // another clear colour
    prepare(resized);
    gui.build(width, height);
    draw_kept(width, height);
    const std::int64_t all = std::int64_t{width} * height;
    // A new size is a new framebuffer with nothing in it: drawn whole.
    if (resized) CHECK(gui.frames.pixels_redrawn() == all);
    if (!resized && gui.frames.pixels_redrawn() < all / 2) some_frame_partial = true;
    const std::vector<float> clear = clear_colour(gui.app);
    CHECK(differing_pixels(shown.read_rgba(), draw_whole(whole, width, height, clear.data())) == 0);
  }
  // The point of it: far from every pixel is redrawn while the ring plays.
  CHECK(some_frame_partial);
}

// Fills the bound framebuffer with magenta, as undefined as a back buffer after a swap or a
// fresh canvas: whatever KeptFrame leaves of it shows.
void fill_magenta(platform::OffscreenTarget& target) {
  target.bind();
  glDisable(GL_SCISSOR_TEST);
  glClearColor(1, 0, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
}

TEST_CASE("kept frame: the interactive window's path gives a whole redraw's pixels through resizes") {
  // The window's back buffer is stood in for by a framebuffer filled with magenta before every
  // frame, as undefined as a back buffer after a swap: whatever KeptFrame copies must cover it.
  platform::OffscreenTarget& window = test_surface().target;
  TestGui gui(ConfigBuilder().ranks(16).count(16), true);
  KeptFrame kept;
  // The window dragged smaller, to a size too small for the panels, and back.
  play_through_sizes(gui, window, {{0, 1600, 900}, {30, 1280, 720}, {45, 300, 200}, {50, 1600, 900}}, 75, 60,
                     [&](bool) { fill_magenta(window); },
                     [&](int width, int height) {
                       kept.draw(gui.frames, gui.app, width, height, window.framebuffer());
                       REQUIRE(kept.path() == KeptFrame::Path::target);
                     });
}

TEST_CASE("kept frame: a frame of no pixels is drawn straight into the window, and the next kept one whole") {
  platform::OffscreenTarget& window = test_surface().target;
  std::string error;
  REQUIRE(window.resize(800, 600, error));
  TestGui gui(ConfigBuilder().ranks(4), false);
  KeptFrame kept;
  auto frame_at = [&](int width, int height) {
    gui.build(width, height, 0);
    kept.draw(gui.frames, gui.app, width, height, window.framebuffer());
  };
  const std::int64_t all = std::int64_t{800} * 600;
  for (int frame = 0; frame <= kSettleFrames; ++frame) frame_at(800, 600);
  REQUIRE(kept.path() == KeptFrame::Path::target);
  CHECK(gui.frames.pixels_redrawn() < all);  // standing still and settled: little redrawn
  // A minimised window has a 0x0 framebuffer: nothing can be kept at that size.
  frame_at(0, 0);
  CHECK(kept.path() == KeptFrame::Path::whole);
  // Restored: the kept pixels were not kept up to date meanwhile, so the frame is whole.
  frame_at(800, 600);
  CHECK(kept.path() == KeptFrame::Path::target);
  CHECK(gui.frames.pixels_redrawn() == all);
  // ... and from then on kept again: the next frames redraw only what changed.
  for (int frame = 0; frame < kSettleFrames; ++frame) frame_at(800, 600);
  CHECK(gui.frames.pixels_redrawn() < all);
}

// The default framebuffer's back buffer, top row first, opaque.
std::vector<std::uint8_t> read_back_buffer(int width, int height) {
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  std::vector<std::uint8_t> bottom_up(row * static_cast<std::size_t>(height)), top_down(bottom_up.size());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  for (int y = 0; y < height; ++y)
    std::copy_n(bottom_up.data() + static_cast<std::size_t>(height - 1 - y) * row, row,
                top_down.data() + static_cast<std::size_t>(y) * row);
  for (std::size_t i = 3; i < top_down.size(); i += 4) top_down[i] = 255;
  return top_down;
}

TEST_CASE("kept frame: a back buffer never swapped keeps a whole redraw's pixels, and every change is shown") {
  // Only a hidden GLX window has a back buffer to keep, and only Mesa's GLX the copy.
  TestSurface& surface = test_surface();
  if (!surface.context.window) return;
  platform::GlxSubBufferCopy parts;
  if (!parts.open()) {
    MESSAGE("skipped: this GLX has no GLX_MESA_copy_sub_buffer");
    return;
  }
  constexpr int kWidth = 800, kHeight = 600;
  glfwSetWindowSize(surface.context.window->handle(), kWidth, kHeight);
  int width = 0, height = 0;
  surface.context.window->framebuffer_size(width, height);
  REQUIRE(width == kWidth);
  REQUIRE(height == kHeight);

  TestGui gui(ConfigBuilder().ranks(8).count(8), true);
  KeptFrame kept;
  kept.show_parts_with(&parts);
  std::vector<std::uint8_t> previous;
  bool some_frame_partial = false;
  for (int frame = 0; frame < 60; ++frame) {
    CAPTURE(frame);
    if (frame == 40) gui.app.preferences().theme = ThemeKind::light;
    if (frame == 50) kept.show_whole_next();  // as after an exposure
    gui.build(kWidth, kHeight);
    kept.draw(gui.frames, gui.app, kWidth, kHeight);
    REQUIRE(kept.path() == KeptFrame::Path::back_buffer);
    CHECK_FALSE(kept.swap_needed());
    // The reference is a whole redraw into the back buffer itself: blending on its format may
    // round an edge pixel differently from an RGBA8 target's. Where the kept pixels are right,
    // redrawing them whole changes nothing the next frame builds on.
    const std::vector<std::uint8_t> kept_pixels = read_back_buffer(kWidth, kHeight);
    const std::vector<float> clear = clear_colour(gui.app);
    glViewport(0, 0, kWidth, kHeight);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    const std::vector<std::uint8_t> reference = read_back_buffer(kWidth, kHeight);
    CHECK(differing_pixels(kept_pixels, reference) == 0);
    // Shown: every pixel that differs from the frame before lies in a rectangle copied to the
    // window (the first frame, and one after an exposure, show everything).
    if (frame == 0 || frame == 50) {
      REQUIRE(kept.shown().size() == 1);
      CHECK(kept.shown()[0] == PixelRect{0, 0, kWidth, kHeight});
    } else {
      std::size_t unshown = 0;
      for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
          const std::size_t at = (static_cast<std::size_t>(y) * kWidth + x) * 4;
          if (std::equal(&reference[at], &reference[at] + 3, &previous[at])) continue;
          bool inside = false;
          for (const PixelRect& r : kept.shown()) inside = inside || (x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1);
          if (!inside) ++unshown;
        }
      CHECK(unshown == 0);
      if (gui.frames.pixels_redrawn() < std::int64_t{kWidth} * kHeight / 2) some_frame_partial = true;
    }
    previous = reference;
  }
  CHECK(some_frame_partial);
}

TEST_CASE("kept frame: a destination that keeps its pixels gets a whole redraw's pixels, redrawing only changes there") {
  // The browser's canvas (preserveDrawingBuffer) is stood in for by a framebuffer that keeps
  // what was drawn into it; a new size is new storage, filled with magenta as a fresh canvas
  // holds nothing of the last frame.
  platform::OffscreenTarget& canvas = test_surface().target;
  TestGui gui(ConfigBuilder().ranks(16).count(16), true);
  KeptFrame kept;
  kept.destination_keeps_pixels(true);
  play_through_sizes(gui, canvas, {{0, 1600, 900}, {30, 1280, 720}, {40, 1600, 900}}, 60, 50,
                     [&](bool resized) {
                       if (resized) fill_magenta(canvas);
                     },
                     [&](int width, int height) {
                       kept.draw(gui.frames, gui.app, width, height, canvas.framebuffer());
                       REQUIRE(kept.path() == KeptFrame::Path::destination);
                       CHECK(kept.swap_needed());  // a canvas is shown by the browser after the frame, as a swap
                     });
}

}  // namespace
}  // namespace ringviz::gui
