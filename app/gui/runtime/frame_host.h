#pragma once
// The frame host: what the three hosts (the window, the headless frame, the recording) share
// of a frame, so that they differ only in where frames go and when (docs/architecture.md,
// "The GUI: frame host, panels and views").
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/render/frame_damage.h"

struct GLFWwindow;

namespace ringviz::gui {

class GuiApp;

// How a host run ends. One rule for all three hosts' exit codes:
//   done             0;
//   cannot_render    2: this input or this machine cannot work: a bad flag (an InputError,
//                    thrown before any host starts), no display to open a window on, no
//                    OpenGL context at all;
//   runtime_failure  1: a failure while running: a file that cannot be written, an encoder
//                    that fails, the GUI that does not start, a framebuffer size the driver
//                    refuses. A missing ffmpeg is one too, as docs/recording.md promises and
//                    tests/gui/test_record.cpp checks: PNG frames still work without it;
//   interrupted      128 + the signal: a recording stopped by Ctrl-C or SIGTERM, after it
//                    deleted its partial output.
enum class HostExit { done, runtime_failure, cannot_render, interrupted };

// The host prints the message once, as "ringviz: <message>", when it returns.
class HostStatus {
 public:
  HostStatus() = default;  // done
  // `signal`: only for HostExit::interrupted.
  HostStatus(HostExit exit, std::string message, int signal = 0)
      : exit_(exit), message_(std::move(message)), signal_(signal) {}

  bool ok() const { return exit_ == HostExit::done; }
  int exit_code() const;
  // Prints the message (if any) on stderr and returns the exit code: the host's last words.
  int report() const;

 private:
  HostExit exit_ = HostExit::done;
  std::string message_;
  int signal_ = 0;
};

// Frames a host draws after a change and before it trusts what it sees: ImGui settles hover
// and active items after input, and auto-sized windows and tables, over a frame or two.
inline constexpr int kSettleFrames = 3;

// How far one frame moves the two clocks.
struct FrameStep {
  double animation_seconds = 0;  // GuiApp::advance: the playback and the extensions
  // ImGui's own clock, when no window's platform backend keeps it; ImGui needs it above 0
  // even when the animation stands still.
  double imgui_seconds = 1.0 / 60.0;
};

// The ImGui context and its renderer backend (and GLFW platform backend when there is a
// window) from construction to destruction, and one GuiApp frame at a time. Needs a current
// GL 3.3 context for its whole life: construct it after the window or context and before the
// GuiApp, so that it goes after the app and before the context.
class FrameHost {
 public:
  // `window`: ImGui takes input, display size and time from it; nullptr: an offscreen frame,
  // whose size and clock come from build().
  explicit FrameHost(GLFWwindow* window = nullptr);
  ~FrameHost();
  FrameHost(const FrameHost&) = delete;
  FrameHost& operator=(const FrameHost&) = delete;

  // Fonts and style for the app's UI scale and theme, then GuiApp::init. Set the content
  // scale, the UI language and the extensions first: they decide the fonts.
  HostStatus start(GuiApp& app);
  // ImGui's frame of `app`, NewFrame to Render, for a framebuffer of width x height pixels
  // (the display size too when there is no window). First brings the fonts up to date (a new
  // UI scale, language or glyphs), for every host, so no host calls that itself.
  void build(GuiApp& app, const FrameStep& step, int width, int height);
  // Draws the frame just built into the bound framebuffer of width x height pixels, on the
  // theme's view background, then lets the app's extensions see it (GuiApp::after_render).
  void draw(GuiApp& app, int width, int height);
  // For a framebuffer that keeps its pixels from one draw() to the next and that nothing else
  // draws into (the headless hosts' offscreen target, the window's KeptFrame; never a window's
  // swapped back buffer): draw() then redraws only the rectangles whose ImGui draw lists
  // changed (FrameDamage). Each call makes the next draw() whole.
  void keep_unchanged_pixels(bool keep) {
    keep_unchanged_ = keep;
    damage_.invalidate();
  }
  // Pixels the last draw() cleared and redrew, and where (top-down pixel rectangles).
  std::int64_t pixels_redrawn() const { return pixels_redrawn_; }
  const std::vector<PixelRect>& rects_redrawn() const { return rects_redrawn_; }
  void frame(GuiApp& app, const FrameStep& step, int width, int height) {
    build(app, step, width, height);
    draw(app, width, height);
  }

 private:
  // Rebuilds fonts and style when the UI scale changed since they were built, or when the
  // atlas lacks the language or glyphs now asked for. Between frames only: build() calls it
  // once per frame, before NewFrame.
  void keep_fonts_current(GuiApp& app);
  void build_fonts(GuiApp& app);
  GLFWwindow* window_ = nullptr;
  float font_scale_ = 0;  // the UI scale the fonts were last built for
  bool keep_unchanged_ = false;
  FrameDamage damage_;
  std::int64_t pixels_redrawn_ = 0;
  std::vector<PixelRect> rects_redrawn_;
};

}  // namespace ringviz::gui
