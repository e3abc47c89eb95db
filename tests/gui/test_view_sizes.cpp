// Every view at every window size, drawn in this process with a real GL context (hidden
// window or EGL): nothing crashes, ImGui gets no NaN, and every panel, GPU box and cell lies
// inside the window, unless the window or the ring view shows its "too small" notice instead
// (docs/architecture.md, "The GUI: frame host, panels and views").
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/gui/runtime/frame_host.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/teaching/lesson_player.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/text/strings.h"
#include "app/gui/views/centre_view.h"
#include "app/platform/offscreen_target.h"
#include "core/teaching/lesson.h"
#include "view_sizes_surface.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz::gui {
namespace {

// The sizes a window can be dragged to, from one pixel up; the random ones repeat from run to
// run (mt19937's sequence is fixed by the standard).
std::vector<std::pair<int, int>> window_sizes() {
  std::vector<std::pair<int, int>> sizes = {{1, 1},     {1, 900},   {1600, 1},  {2, 2},   {7, 13},   {63, 63},
                                            {100, 64},  {250, 150}, {320, 180}, {640, 360}, {800, 600}};
  std::mt19937 random(20261203);
  for (int i = 0; i < 6; ++i)
    sizes.emplace_back(1 + static_cast<int>(random() % 1600), 1 + static_cast<int>(random() % 1000));
  return sizes;
}

struct ViewCase {
  std::string name;
  CentreView view = CentreView::ring;
  int gpus = 4;
  int slices = 1;
  int channels = 1;
  std::string memory_model;  // a transformer preset: the Memory tab opens on its iteration
  ClassroomOptions classroom;
  float ui_scale = 1.0f;
  bool lesson = false;
  std::size_t caption_chars = 0;  // > 0: every caption of the lesson replaced by one this long
};

// A caption of `chars` bytes: English words, or Chinese with no space to break at.
std::string huge_caption(std::size_t chars, Language language) {
  const std::string piece = language == Language::zh ? "每张GPU把一个分片发给右边的邻居，" : "every GPU sends one chunk to the right ";
  std::string caption;
  while (caption.size() < chars) caption += piece;
  return caption;
}

Lesson lesson_for(const ViewCase& c) {
  Lesson lesson = load_lesson_file(std::string(RINGVIZ_SOURCE_DIR) + "/assets/lessons/05-allreduce-traffic.json");
  if (c.caption_chars > 0)
    for (LessonScene& scene : lesson.scenes)
      for (LessonStep& step : scene.steps)
        step.caption = {huge_caption(c.caption_chars, Language::en), huge_caption(c.caption_chars, Language::zh)};
  return lesson;
}

bool finite(const Rect& r) {
  return std::isfinite(r.x) && std::isfinite(r.y) && std::isfinite(r.w) && std::isfinite(r.h);
}

bool inside(const Rect& r, float width, float height) {
  constexpr float kSlack = 0.5f;  // rounding to whole pixels
  return finite(r) && r.w >= 0 && r.h >= 0 && r.x >= -kSlack && r.y >= -kSlack && r.right() <= width + kSlack &&
         r.bottom() <= height + kSlack;
}

// Every vertex and clip rectangle ImGui was given this frame is a number.
void check_draw_data_finite() {
  const ImDrawData* data = ImGui::GetDrawData();
  REQUIRE(data != nullptr);
  for (int l = 0; l < data->CmdListsCount; ++l) {
    const ImDrawList* list = data->CmdLists[l];
    bool finite_vertices = true;
    for (const ImDrawVert& v : list->VtxBuffer)
      finite_vertices = finite_vertices && std::isfinite(v.pos.x) && std::isfinite(v.pos.y);
    CHECK(finite_vertices);
    for (const ImDrawCmd& command : list->CmdBuffer)
      CHECK(finite({command.ClipRect.x, command.ClipRect.y, command.ClipRect.z, command.ClipRect.w}));
  }
}

void check_layout(GuiApp& app, CentreView view, float width, float height) {
  if (app.too_small(width, height)) return;  // only the notice is drawn
  const PanelLayout& p = app.panels();
  for (const Rect& panel : {p.setup, p.caption, p.view, p.round_table, p.traffic, p.controls, p.devices})
    CHECK(inside(panel, width, height));
  const RingGeometry& ring = app.geometry();
  if (view != CentreView::ring || !ring.fits) return;  // the other views, or the view's notice
  REQUIRE(static_cast<int>(ring.boxes.size()) == app.model().config().ranks);
  for (int r = 0; r < ring.ranks; ++r) {
    CHECK(inside(ring.boxes[static_cast<std::size_t>(r)].box, width, height));
    for (int slot = 0; slot < ring.ranks; ++slot) CHECK(inside(ring.painted_cell(r, slot), width, height));
  }
  for (const PipelineMarker& marker : app.pipeline_frame().markers) CHECK(inside(marker.box, width, height));
}

void sweep(const ViewCase& c) {
  CAPTURE(c.name);
  ShowRequest request;
  request.view = c.view;
  request.memory_model = c.memory_model;
  request.config = ConfigBuilder().ranks(c.gpus).slices(c.slices).channels(c.channels);
  const Config& config = request.config;
  platform::OffscreenTarget& target = test_surface().target;
  FrameHost frames;
  Host host;
  host.interactive = false;
  GuiApp app(request, BackendChoice::cpu, Preferences{}, host);
  ClassroomMode classroom(c.classroom);
  app.add_extension(&classroom);
  LessonPlayer lessons(c.classroom.language);
  if (c.lesson) {
    lessons.set_lesson(lesson_for(c));
    app.add_extension(&lessons);
  }
  classroom.start(app);
  app.set_content_scale(c.ui_scale);
  const HostStatus started = frames.start(app);
  REQUIRE(started.ok());
  if (!c.lesson) app.playback().seek(std::min(1.5, static_cast<double>(app.model().session().round_count())));
  for (auto [width, height] : window_sizes()) {
    CAPTURE(width);
    CAPTURE(height);
    std::string error;
    REQUIRE(target.resize(width, height, error));
    // Two frames: the first one at a new size lays out, the second draws what it laid out.
    for (int frame = 0; frame < 2; ++frame) {
      FrameStep step;
      step.animation_seconds = 0.05;
      frames.build(app, step, width, height);
      check_draw_data_finite();
      target.bind();
      frames.draw(app, width, height);
    }
    check_layout(app, c.view, static_cast<float>(width), static_cast<float>(height));
  }
}

}  // namespace

TEST_CASE("every centre view draws at every window size from 1x1 up, or says the window is too small") {
  for (CentreView view : kAllCentreViews)
    sweep({.name = std::string(centre_view_name(view)), .view = view});
}

TEST_CASE("presentation mode, predict mode, Chinese, a lesson caption and --ui-scale 4 survive every size") {
  sweep({.name = "present", .classroom = {.present = true}});
  sweep({.name = "predict", .classroom = {.predict = true}});
  sweep({.name = "zh", .classroom = {.language = Language::zh}});
  sweep({.name = "lesson caption", .lesson = true});
  sweep({.name = "ui-scale 4", .ui_scale = 4.0f});
  sweep({.name = "zh presentation", .view = CentreView::memory, .classroom = {.language = Language::zh, .present = true}});
}

TEST_CASE("the Memory tab's whole iteration draws at every window size, in English and in Chinese") {
  sweep({.name = "iteration", .view = CentreView::memory, .gpus = 8, .memory_model = "llama3-8b"});
  sweep({.name = "iteration zh", .view = CentreView::memory, .gpus = 8, .memory_model = "llama3-8b",
         .classroom = {.language = Language::zh}});
}

TEST_CASE("a lesson caption of a million characters, English or Chinese, draws at every size") {
  sweep({.name = "huge English caption", .lesson = true, .caption_chars = 1'000'000});
  sweep({.name = "huge Chinese caption", .classroom = {.language = Language::zh}, .lesson = true,
         .caption_chars = 1'000'000});
}

TEST_CASE("the pipelined ring, with lanes or with the channel selector, draws its slices inside every size") {
  sweep({.name = "4 slices on 2 channels", .slices = 4, .channels = 2});
  sweep({.name = "8 slices on 8 channels, 16 GPUs", .gpus = 16, .slices = 8, .channels = 8});
}

TEST_CASE("the ring of 1, 2, 64 and 256 GPUs fits every size, or shows its notice") {
  for (int gpus : {1, 2, 64, 256}) sweep({.name = std::to_string(gpus) + " GPUs", .gpus = gpus});
}

}  // namespace ringviz::gui
