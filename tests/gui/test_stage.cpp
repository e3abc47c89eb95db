// The stage of `ringviz record` (app/gui/stage): its layout gives the view most of the frame
// and text a phone can read at 720p, its clock puts a title card before the lesson and an end
// card after it, and its frames cross-fade where the picture changes and keep straight alpha.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "app/gui/stage/stage_frames.h"
#include "app/gui/layout/stage_layout.h"
#include "app/gui/stage/stage_timeline.h"
#include "core/teaching/lesson.h"

using namespace ringviz;
using namespace ringviz::gui;

namespace {

Lesson two_scene_lesson() {
  const char* text = R"({
    "schema": "ringviz.lesson/1",
    "title": {"en": "T", "zh": "T"},
    "summary": {"en": "S", "zh": "S"},
    "scenes": [
      {"title": {"en": "one", "zh": "one"}, "config": {"op": "allgather", "gpus": 3}, "views": ["ring"],
       "steps": [{"caption": {"en": "a", "zh": "a"}, "pause": 2},
                 {"caption": {"en": "b", "zh": "b"}, "pause": 2}]},
      {"title": {"en": "two", "zh": "two"}, "config": {"op": "allgather", "gpus": 3}, "views": ["ring"],
       "steps": [{"caption": {"en": "c", "zh": "c"}, "pause": 3}]}
    ]})";
  return parse_lesson(text, "two.json");
}

}  // namespace

TEST_CASE("the stage's caption is at least 28 pixels at 720p and grows with the height, sharp multiples of 13") {
  CHECK(stage_caption_pixels(720) >= 28);
  CHECK(stage_caption_pixels(720) == 39);
  CHECK(stage_caption_pixels(1080) >= 1080 * 0.04f);
  CHECK(stage_caption_pixels(2160) >= 3 * 28);
  for (float h : {360.0f, 720.0f, 1080.0f, 2160.0f}) CHECK(static_cast<int>(stage_caption_pixels(h)) % 13 == 0);
  CHECK(stage_ui_scale(720) == doctest::Approx(2.0));
  CHECK(stage_ui_scale(2160) == doctest::Approx(6.0));
}

TEST_CASE("the stage layout gives the view the whole width and all but a thin header, and nothing to the panels") {
  for (auto [w, h] : {std::pair{1280.0f, 720.0f}, std::pair{1920.0f, 1080.0f}, std::pair{3840.0f, 2160.0f}}) {
    const PanelLayout p = layout_stage_panels(w, h, stage_ui_scale(static_cast<int>(h)));
    CHECK(p.setup.w == 0);
    CHECK(p.round_table.w == 0);
    CHECK(p.traffic.w == 0);
    CHECK(p.controls.h == 0);
    CHECK(p.view.w == w);
    CHECK(p.view.bottom() == h);
    CHECK(p.caption.h > 0);
    CHECK(p.view.h >= h * 0.8f);
  }
}

TEST_CASE("a stage video is a title card, the lesson, then an end card, with scenes and steps told apart") {
  const Lesson lesson = two_scene_lesson();
  const double d = lesson.duration();
  REQUIRE(d == doctest::Approx(7.0));
  CHECK(stage_video_seconds(lesson) == doctest::Approx(kStageTitleSeconds + d + kStageEndSeconds));
  StageMoment m = stage_moment(lesson, 0.5);
  CHECK(m.part == StagePart::title);
  CHECK(m.scene == -1);
  m = stage_moment(lesson, kStageTitleSeconds + 1.0);
  CHECK(m.part == StagePart::lesson);
  CHECK(m.lesson_seconds == doctest::Approx(1.0));
  CHECK(m.scene == 0);
  CHECK(m.step == 0);
  m = stage_moment(lesson, kStageTitleSeconds + 3.0);
  CHECK(m.scene == 0);
  CHECK(m.step == 1);
  CHECK(m.step_start == doctest::Approx(kStageTitleSeconds + 2.0));
  m = stage_moment(lesson, kStageTitleSeconds + 5.0);
  CHECK(m.scene == 1);
  CHECK(m.step == 2);
  CHECK(m.scene_start == doctest::Approx(kStageTitleSeconds + 4.0));
  m = stage_moment(lesson, kStageTitleSeconds + d + 0.1);
  CHECK(m.part == StagePart::end);
  CHECK(m.lesson_seconds == doctest::Approx(d));
  CHECK(m.scene == 2);
}

TEST_CASE("a fade lasts kStageFadeSeconds, and at 1 fps there is none") {
  CHECK(stage_fade_weight(0, 30) > 0);
  CHECK(stage_fade_weight(0, 30) < 0.2f);
  CHECK(stage_fade_weight(kStageFadeSeconds * 0.5, 1000) == doctest::Approx(0.5).epsilon(0.01));
  CHECK(stage_fade_weight(kStageFadeSeconds, 30) == 1.0f);
  CHECK(stage_fade_weight(0, 1) == 1.0f);
}

TEST_CASE("premultiplied colours become straight alpha, transparent pixels stay transparent") {
  std::vector<std::uint8_t> px = {0, 0, 0, 0, 100, 50, 0, 128, 10, 20, 30, 255};
  unpremultiply(px.data(), 3);
  CHECK(px[3] == 0);
  CHECK(px[4] == 199);
  CHECK(px[5] == 100);
  CHECK(px[7] == 128);
  CHECK(px[8] == 10);
  CHECK(px[11] == 255);
}

TEST_CASE("a new scene cross-fades the whole frame, a new step only its caption band") {
  const Lesson lesson = two_scene_lesson();
  const int w = 4, h = 10, fps = 10;
  auto image = [&](std::uint8_t v) { return std::vector<std::uint8_t>(static_cast<std::size_t>(w * h * 4), v); };
  const std::vector<std::uint8_t> before = image(0), after = image(200);
  // Step 0 to step 1 of scene 0, band from row 6 (top-down) to the bottom: rows 0..3 bottom-up.
  {
    StageFrames frames(w, h, fps, false);
    const double t0 = kStageTitleSeconds + 1.9, t1 = kStageTitleSeconds + 2.05;
    frames.before_frame(stage_moment(lesson, t0), before, 6);
    frames.finish(before, t0, 6);
    frames.before_frame(stage_moment(lesson, t1), before, 6);
    const std::uint8_t* out = frames.finish(after, t1, 6);
    CHECK(frames.fading());
    const auto at = [&](int row_bottom_up) { return out[static_cast<std::size_t>(row_bottom_up * w * 4)]; };
    CHECK(at(0) > 0);
    CHECK(at(0) < 200);
    CHECK(at(3) == at(0));
    CHECK(at(4) == 200);  // above the band: the new frame as drawn
    CHECK(at(9) == 200);
  }
  // Scene 0 to scene 1: every row fades, and the fade ends after kStageFadeSeconds.
  {
    StageFrames frames(w, h, fps, false);
    const double t0 = kStageTitleSeconds + 3.95, t1 = kStageTitleSeconds + 4.05;
    frames.before_frame(stage_moment(lesson, t0), before, 6);
    frames.finish(before, t0, 6);
    frames.before_frame(stage_moment(lesson, t1), before, 6);
    const std::uint8_t* out = frames.finish(after, t1, 6);
    CHECK(out[0] < 200);
    CHECK(out[static_cast<std::size_t>(9 * w * 4)] < 200);
    const double later = t1 + kStageFadeSeconds;
    frames.before_frame(stage_moment(lesson, later), after, 6);
    CHECK(frames.finish(after, later, 6)[0] == 200);
    CHECK_FALSE(frames.fading());
  }
}
