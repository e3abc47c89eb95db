#include "app/web/browser_page.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <nlohmann/json.hpp>

#include "app/gui/hosts/startup.h"
#include "app/gui/text/font_loader.h"
#include "app/web/view_link.h"
#include "core/model/enum_table.h"
#include "core/teaching/lesson.h"

namespace ringviz::web {

namespace {

// Input the canvas received (keys, text, buttons, the pointer, the wheel, focus), counted by
// GLFW callbacks installed before Dear ImGui's backend, which calls them after its own.
unsigned long long g_input_events = 0;

void count_input_events(GLFWwindow* window) {
  glfwSetKeyCallback(window, [](GLFWwindow*, int, int, int, int) { ++g_input_events; });
  glfwSetCharCallback(window, [](GLFWwindow*, unsigned int) { ++g_input_events; });
  glfwSetMouseButtonCallback(window, [](GLFWwindow*, int, int, int) { ++g_input_events; });
  glfwSetCursorPosCallback(window, [](GLFWwindow*, double, double) { ++g_input_events; });
  glfwSetScrollCallback(window, [](GLFWwindow*, double, double) { ++g_input_events; });
  glfwSetCursorEnterCallback(window, [](GLFWwindow*, int) { ++g_input_events; });
  glfwSetWindowFocusCallback(window, [](GLFWwindow*, int) { ++g_input_events; });
}

}  // namespace

bool BrowserPage::open(std::string& error) {
  platform::WindowOptions options;
  options.title = "ringviz";
  window_ = platform::GlfwWindow::open(options, error);
  if (!window_) return false;
  // The state the GL code saves and restores around each draw, answered without waiting for
  // the GPU process (web/webgl_context.js).
  EM_ASM({ Module.mirrorGlState(Module.ctx); });
  // The canvas keeps its pixels between frames (preserveDrawingBuffer, web/webgl_context.js).
  kept_.destination_keeps_pixels(true);
  count_input_events(window_->handle());  // before the FrameHost's ImGui backend chains them
  frames_ = std::make_unique<gui::FrameHost>(window_->handle());
  host_.graphics = window_->describe();
  host_.toggle_fullscreen = [this] { window_->toggle_fullscreen(); };
  return true;
}

bool BrowserPage::show(LinkStart link, const std::string& fragment) {
  gui::Preferences preferences;
  preferences.language = link.language;
  auto shown = std::make_unique<Shown>();
  shown->app = std::make_unique<gui::GuiApp>(link.start.request, BackendChoice::cpu, preferences, host_,
                                             std::move(link.start.replay), std::move(link.start.plan));
  gui::GuiApp& app = *shown->app;
  // The lesson player as the desktop window carries it; recording is the page's own (a WebM of
  // the canvas, web/shell.html), not ffmpeg's.
  gui::LessonPlayer& lessons = shown->extras.lessons;
  if (const auto folder = find_lesson_folder(std::filesystem::path("/")))
    lessons.set_lesson_files(list_lesson_files(*folder));
  lessons.set_interactive(true);
  lessons.left_limit = [&app] { return app.views().tabs_right(); };
  app.add_extension(&lessons);
  shown->classroom = std::make_unique<gui::ClassroomMode>(
      gui::classroom_options(std::string(language_name(link.language)), link.present, 0, link.predict));
  app.add_extension(shown->classroom.get());
  shown->classroom->on_language_change = [&lessons](Language language) { lessons.set_language(language); };
  shown->classroom->fetch_chinese_font = [this] { return request_chinese_font(); };
  shown->classroom->start(app);
  shown->copy_command = std::make_unique<gui::CopyCommand>(shown->classroom.get());
  app.add_extension(shown->copy_command.get());
  shown->copy_link = std::make_unique<CopyLink>(shown->copy_command.get(), &lessons);
  app.add_extension(shown->copy_link.get());
  app.set_content_scale(window_->content_scale());
  const gui::HostStatus status = frames_->start(app);
  if (!status.ok()) {
    status.report();  // on the browser's console
    return false;
  }
  if (link.lesson) {
    lessons.set_lesson(std::move(link.lesson));
    lessons.seek(link.lesson_seconds);
    lessons.set_playing(false);
  }
  if (!link.round.empty())
    app.transport().seek(gui::parse_round(link.round, app.transport().round_count(), app.memory_stepper_shown()));
  // A link as given is usually shorter than the one the view writes (defaults left out): the
  // first settled frame puts the full one in its place rather than adding a history entry.
  if (fragment.empty())
    shown->copy_link->showing(shown->copy_link->fragment(app), false);
  else
    shown->copy_link->showing(fragment, true);
  shown_ = std::move(shown);
  kept_.show_whole_next();  // another app's first frame: nothing kept is its
  wake();
  return true;
}

void BrowserPage::notice(const std::string& text) {
  wake();
  last_notice_ = text;
  if (shown_) shown_->app->add_notice(text);
  EM_ASM({ ringvizPage.notice(UTF8ToString($0)); }, text.c_str());
}

bool BrowserPage::request_chinese_font() {
  switch (chinese_font_) {
    case FontFetch::loading: return true;
    case FontFetch::arrived: return false;  // here, yet unreadable: the desktop's notice says so
    case FontFetch::not_asked:
    case FontFetch::failed: break;          // (again: the network may be back)
  }
  chinese_font_ = FontFetch::loading;
  EM_ASM({ ringvizPage.fetchChineseFont(UTF8ToString($0)); }, gui::chinese_font_path().c_str());
  return true;
}

void BrowserPage::font_fetched(bool ok, const std::string& error) {
  chinese_font_ = ok ? FontFetch::arrived : FontFetch::failed;
  wake();  // Chinese now, or the failure's notice
  if (shown_) shown_->classroom->font_fetched(*shown_->app, ok, error);
}

void BrowserPage::follow_fragment(const std::string& fragment) {
  std::string refusal;
  try {
    if (show(parse_link(fragment), fragment)) {
      last_notice_.clear();
      EM_ASM({ ringvizPage.notice(""); });
      return;
    }
  } catch (const std::exception& error) {
    refusal = error.what();
  }
  // The default view, and the reason beside it; the address keeps the link as it was given.
  show(parse_link(""), "");
  notice("this link does not open a view: " + refusal + "; showing the default view");
}

void BrowserPage::open_file(const std::string& path) {
  if (!shown_) return;
  gui::ViewState state = shown_->copy_command->state_of(*shown_->app);
  state.open = path;
  state.round = 0;
  const std::string fragment = view_link_fragment(state);
  try {
    LinkStart link = parse_link(fragment);
    if (show(std::move(link), "")) return;
  } catch (const std::exception& error) {
    notice(std::filesystem::path(path).filename().string() + " does not open: " + error.what());
  }
}

void BrowserPage::frame() {
  if (!shown_) return;
  gui::GuiApp& app = *shown_->app;
  // The canvas fills its box in CSS pixels; its drawing buffer has a device pixel for each
  // (devicePixelRatio), and the UI scales with it so text keeps its size on the screen.
  double css_width = 0, css_height = 0;
  emscripten_get_element_css_size("#canvas", &css_width, &css_height);
  const double ratio = std::max(1.0, emscripten_get_device_pixel_ratio());
  const int want_width = std::max(1, static_cast<int>(std::lround(css_width * ratio)));
  const int want_height = std::max(1, static_cast<int>(std::lround(css_height * ratio)));
  int window_width = 0, window_height = 0;
  window_->window_size(window_width, window_height);
  if (css_width > 0 && css_height > 0 && (window_width != want_width || window_height != want_height)) {
    glfwSetWindowSize(window_->handle(), want_width, want_height);
    wake();
  }
  const float scale_before = app.ui_scale();
  app.set_content_scale(static_cast<float>(ratio));
  if (app.ui_scale() != scale_before) wake();

  const double now = emscripten_get_now();
  const double elapsed = last_frame_ms_ > 0 ? (now - last_frame_ms_) / 1000.0 : 0.0;
  last_frame_ms_ = now;
  ++frames_offered_;
  if (g_input_events != input_seen_) {
    input_seen_ = g_input_events;
    wake();
  }
  if (!app.animating()) {
    if (settle_frames_ <= 0) return;  // nothing moves: the canvas keeps the last frame
    --settle_frames_;
  }
  int width = 0, height = 0;
  window_->framebuffer_size(width, height);
  gui::FrameStep step;
  step.animation_seconds = std::min(elapsed, 0.1);  // a stall (a hidden tab) must not skip whole rounds
  frames_->build(app, step, width, height);
  kept_.draw(*frames_, app, width, height);
  ++frames_drawn_;
}

std::string BrowserPage::link() { return shown_ ? shown_->copy_link->fragment(*shown_->app) : std::string(); }

std::string BrowserPage::state_json() {
  nlohmann::json state;
  state["frames"] = frames_offered_;
  state["drawn"] = frames_drawn_;
  state["notice"] = last_notice_;
  if (shown_) {
    gui::GuiApp& app = *shown_->app;
    const gui::ViewState view = shown_->copy_command->state_of(app);
    state["op"] = enum_name(kOpNames, view.config.op);
    state["gpus"] = view.config.ranks;
    state["round"] = view.round;
    state["rounds"] = app.transport().round_count();
    state["view"] = enum_name(kCentreViewNames, view.view);
    state["lang"] = std::string(language_name(view.language));
    state["presentation"] = view.present;
    state["predict"] = view.predict;
    state["playing"] = app.playback().playing();
    state["open"] = view.open;
    const gui::LessonPlayer& lessons = shown_->extras.lessons;
    state["lesson"] = lessons.active() ? std::filesystem::path(lessons.lesson().source).stem().string() : std::string();
    state["scene"] = lessons.active() ? lessons.frame().scene_index + 1 : 0;
    state["link"] = shown_->copy_link->fragment(app);
    int width = 0, height = 0;
    window_->framebuffer_size(width, height);
    state["width"] = width;
    state["height"] = height;
    state["ui_scale"] = app.ui_scale();
    static constexpr const char* kFontStates[] = {"not_asked", "loading", "arrived", "failed"};
    state["chinese_font"] = kFontStates[static_cast<int>(chinese_font_)];
  }
  return state.dump();
}

}  // namespace ringviz::web
