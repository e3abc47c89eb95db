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

TEST_CASE("kept frame: the interactive window's path gives a whole redraw's pixels through resizes") {
  // The window's back buffer is stood in for by a framebuffer filled with magenta before every
  // frame, as undefined as a back buffer after a swap: whatever KeptFrame copies must cover it.
  platform::OffscreenTarget& window = test_surface().target;
  platform::OffscreenTarget whole;
  std::string error;

  const Config config = ConfigBuilder().ranks(16).count(16);
  FrameHost frames;
  Host host;
  host.interactive = false;
  GuiApp app(ring_request(config), BackendChoice::cpu, Preferences{}, host);
  REQUIRE(frames.start(app).ok());
  app.playback().set_loop(true);
  app.playback().play();

  struct Size {
    int first_frame, width, height;
  };
  // The window dragged smaller, to a size too small for the panels, and back.
  const Size sizes[] = {{0, 1600, 900}, {30, 1280, 720}, {45, 300, 200}, {50, 1600, 900}};
  KeptFrame kept;
  int width = 0, height = 0;
  bool some_frame_partial = false;
  for (int frame = 0; frame < 75; ++frame) {
    CAPTURE(frame);
    bool resized = false;
    for (const Size& size : sizes)
      if (size.first_frame == frame) {
        width = size.width;
        height = size.height;
        resized = true;
        REQUIRE(window.resize(width, height, error));
        REQUIRE(whole.resize(width, height, error));
      }
    CAPTURE(width);
    if (frame == 60) app.preferences().theme = ThemeKind::light;  // another clear colour
    window.bind();
    glDisable(GL_SCISSOR_TEST);
    glClearColor(1, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);

    FrameStep step;
    step.animation_seconds = 0.07;
    frames.build(app, step, width, height);
    kept.draw(frames, app, width, height, window.framebuffer());
    REQUIRE(kept.path() == KeptFrame::Path::target);
    const std::int64_t all = std::int64_t{width} * height;
    // A new size is a new framebuffer with nothing in it: drawn whole.
    if (resized) CHECK(frames.pixels_redrawn() == all);
    if (!resized && frames.pixels_redrawn() < all / 2) some_frame_partial = true;

    const std::vector<float> clear = clear_colour(app);
    const std::vector<std::uint8_t> shown = window.read_rgba();
    CHECK(differing_pixels(shown, draw_whole(whole, width, height, clear.data())) == 0);
  }
  // The point of it: the window too redraws far from every pixel while the ring plays.
  CHECK(some_frame_partial);
}

TEST_CASE("kept frame: a frame of no pixels is drawn straight into the window, and the next kept one whole") {
  platform::OffscreenTarget& window = test_surface().target;
  std::string error;
  REQUIRE(window.resize(800, 600, error));
  const Config config = ConfigBuilder().ranks(4);
  FrameHost frames;
  Host host;
  host.interactive = false;
  GuiApp app(ring_request(config), BackendChoice::cpu, Preferences{}, host);
  REQUIRE(frames.start(app).ok());
  KeptFrame kept;
  FrameStep step;
  const std::int64_t all = std::int64_t{800} * 600;
  for (int frame = 0; frame <= kSettleFrames; ++frame) {
    frames.build(app, step, 800, 600);
    kept.draw(frames, app, 800, 600, window.framebuffer());
  }
  REQUIRE(kept.path() == KeptFrame::Path::target);
  CHECK(frames.pixels_redrawn() < all);  // standing still and settled: little redrawn
  // A minimised window has a 0x0 framebuffer: nothing can be kept at that size.
  frames.build(app, step, 0, 0);
  kept.draw(frames, app, 0, 0, window.framebuffer());
  CHECK(kept.path() == KeptFrame::Path::whole);
  // Restored: the kept pixels were not kept up to date meanwhile, so the frame is whole.
  frames.build(app, step, 800, 600);
  kept.draw(frames, app, 800, 600, window.framebuffer());
  CHECK(kept.path() == KeptFrame::Path::target);
  CHECK(frames.pixels_redrawn() == all);
  // ... and from then on kept again: the next frames redraw only what changed.
  for (int frame = 0; frame < kSettleFrames; ++frame) {
    frames.build(app, step, 800, 600);
    kept.draw(frames, app, 800, 600, window.framebuffer());
  }
  CHECK(frames.pixels_redrawn() < all);
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

  const Config config = ConfigBuilder().ranks(8).count(8);
  FrameHost frames;
  Host host;
  host.interactive = false;
  GuiApp app(ring_request(config), BackendChoice::cpu, Preferences{}, host);
  REQUIRE(frames.start(app).ok());
  app.playback().set_loop(true);
  app.playback().play();

  KeptFrame kept;
  kept.show_parts_with(&parts);
  std::vector<std::uint8_t> previous;
  bool some_frame_partial = false;
  for (int frame = 0; frame < 60; ++frame) {
    CAPTURE(frame);
    if (frame == 40) app.preferences().theme = ThemeKind::light;
    if (frame == 50) kept.show_whole_next();  // as after an exposure
    FrameStep step;
    step.animation_seconds = 0.07;
    frames.build(app, step, kWidth, kHeight);
    kept.draw(frames, app, kWidth, kHeight);
    REQUIRE(kept.path() == KeptFrame::Path::back_buffer);
    CHECK_FALSE(kept.swap_needed());
    // The reference is a whole redraw into the back buffer itself: blending on its format may
    // round an edge pixel differently from an RGBA8 target's. Where the kept pixels are right,
    // redrawing them whole changes nothing the next frame builds on.
    const std::vector<std::uint8_t> kept_pixels = read_back_buffer(kWidth, kHeight);
    const std::vector<float> clear = clear_colour(app);
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
      if (frames.pixels_redrawn() < std::int64_t{kWidth} * kHeight / 2) some_frame_partial = true;
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
  platform::OffscreenTarget whole;
  std::string error;

  const Config config = ConfigBuilder().ranks(16).count(16);
  FrameHost frames;
  Host host;
  host.interactive = false;
  GuiApp app(ring_request(config), BackendChoice::cpu, Preferences{}, host);
  REQUIRE(frames.start(app).ok());
  app.playback().set_loop(true);
  app.playback().play();

  struct Size {
    int first_frame, width, height;
  };
  const Size sizes[] = {{0, 1600, 900}, {30, 1280, 720}, {40, 1600, 900}};
  KeptFrame kept;
  kept.destination_keeps_pixels(true);
  int width = 0, height = 0;
  bool some_frame_partial = false;
  for (int frame = 0; frame < 60; ++frame) {
    CAPTURE(frame);
    bool resized = false;
    for (const Size& size : sizes)
      if (size.first_frame == frame) {
        width = size.width;
        height = size.height;
        resized = true;
        REQUIRE(canvas.resize(width, height, error));
        REQUIRE(whole.resize(width, height, error));
        canvas.bind();
        glDisable(GL_SCISSOR_TEST);
        glClearColor(1, 0, 1, 1);
        glClear(GL_COLOR_BUFFER_BIT);
      }
    if (frame == 50) app.preferences().theme = ThemeKind::light;  // another clear colour
    FrameStep step;
    step.animation_seconds = 0.07;
    frames.build(app, step, width, height);
    kept.draw(frames, app, width, height, canvas.framebuffer());
    REQUIRE(kept.path() == KeptFrame::Path::destination);
    CHECK(kept.swap_needed());  // a canvas is shown by the browser after the frame, as a swap
    const std::int64_t all = std::int64_t{width} * height;
    if (resized) CHECK(frames.pixels_redrawn() == all);
    if (!resized && frames.pixels_redrawn() < all / 2) some_frame_partial = true;

    const std::vector<float> clear = clear_colour(app);
    CHECK(differing_pixels(canvas.read_rgba(), draw_whole(whole, width, height, clear.data())) == 0);
  }
  CHECK(some_frame_partial);
}

}  // namespace
}  // namespace ringviz::gui
