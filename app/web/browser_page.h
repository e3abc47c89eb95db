#pragma once
// The browser host (docs/architecture.md, "The browser build"): the page's canvas as the GLFW
// window, one GuiApp frame per animation frame of the browser (emscripten_set_main_loop: a
// loop of its own would never give the page back), and the view opened from the URL fragment.
// The desktop's interactive host (app/gui/hosts/run_interactive.cpp) is its sibling; both build
// their start with prepare_gui_start() from the same flags.
#include <memory>
#include <optional>
#include <string>

#include "app/gui/hosts/hosts.h"
#include "app/gui/runtime/frame_host.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/runtime/kept_frame.h"
#include "app/gui/share/copy_command.h"
#include "app/gui/teaching/lesson_player_host.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/platform/glfw_window.h"
#include "app/web/copy_link.h"
#include "app/web/link_start.h"
#include "core/teaching/lesson.h"

namespace ringviz::web {

class BrowserPage {
 public:
  // Opens the canvas's WebGL2 context; false with `error` when the browser has none.
  bool open(std::string& error);
  // Shows the view `fragment` describes, paused at its round. A refused fragment shows the
  // default view and a notice saying why (on the canvas and above it), never a blank page.
  void follow_fragment(const std::string& fragment);
  // Replays a file the user picked (already in the page's file system at `path`). A refused
  // file is a notice and the current view stays, as with the desktop's Open control.
  void open_file(const std::string& path);
  // One frame: follows the canvas's size and the screen's pixel ratio, then draws.
  void frame();
  // The Chinese font's fetch (started by request_chinese_font) ended; `error` says why not.
  void font_fetched(bool ok, const std::string& error);
  // The page's state for its test hook, as JSON.
  std::string state_json();
  // The link of what is on screen.
  std::string link();

 private:
  // Replaces the app with one started from `link`; false (and nothing changed) when its start
  // cannot run.
  bool show(LinkStart link, const std::string& fragment);
  void notice(const std::string& text);
  // ClassroomMode::fetch_chinese_font: the font is not in the page's download (web/CMakeLists.txt)
  // but fetched beside it the first time Chinese is asked for; true while it is on its way.
  bool request_chinese_font();

  std::unique_ptr<platform::GlfwWindow> window_;
  std::unique_ptr<gui::FrameHost> frames_;
  // The canvas keeps its pixels from one frame to the next (web/webgl_context.js): a frame
  // redraws only what changed, straight into it, as the desktop window's kept frames do.
  gui::KeptFrame kept_;
  // One GuiApp and its extensions per view opened; destroyed in reverse order of declaration.
  struct Shown {
    std::unique_ptr<gui::GuiApp> app;
    gui::InteractiveExtras extras;
    std::unique_ptr<gui::ClassroomMode> classroom;
    std::unique_ptr<gui::CopyCommand> copy_command;
    std::unique_ptr<CopyLink> copy_link;
  };
  std::unique_ptr<Shown> shown_;
  gui::Host host_;
  double last_frame_ms_ = 0;
  long long frames_offered_ = 0;  // animation frames the browser gave, drawn or not
  long long frames_drawn_ = 0;
  // Frames still to draw though nothing animates: after input, a new view, a resize or a
  // notice, ImGui settles hover, tables and tabs over a frame or two (gui::kSettleFrames), as
  // the desktop window does before it sleeps. With none left and nothing animating, a frame
  // is skipped: the canvas keeps the last one, and an idle page costs no drawing.
  int settle_frames_ = 0;
  unsigned long long input_seen_ = 0;
  void wake() { settle_frames_ = gui::kSettleFrames; }
  std::string last_notice_;
  enum class FontFetch { not_asked, loading, arrived, failed };
  FontFetch chinese_font_ = FontFetch::not_asked;
};

}  // namespace ringviz::web
