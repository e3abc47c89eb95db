#include "app/gui/stage/stage_timeline.h"

#include <algorithm>

namespace ringviz::gui {

double stage_video_seconds(const Lesson& lesson) {
  return recorded_lesson_seconds(lesson, LessonCards::title_and_end);
}

StageMoment stage_moment(const Lesson& lesson, double video_seconds) {
  const double t = std::clamp(video_seconds, 0.0, stage_video_seconds(lesson));
  const double duration = lesson.duration();
  StageMoment m;
  if (t < kStageTitleSeconds) return m;  // the title card
  const int scenes = static_cast<int>(lesson.scenes.size());
  if (t >= kStageTitleSeconds + duration) {
    m.part = StagePart::end;
    m.lesson_seconds = duration;
    m.scene = scenes;
    m.scene_start = m.step_start = kStageTitleSeconds + duration;
    m.step = -2;  // not any step of the lesson
    return m;
  }
  m.part = StagePart::lesson;
  m.lesson_seconds = t - kStageTitleSeconds;
  const LessonFrame frame = lesson_frame(lesson, m.lesson_seconds, Language::en);
  m.scene = frame.scene_index;
  m.scene_start = kStageTitleSeconds + frame.scene->start_seconds;
  int step = frame.step_index;
  for (int s = 0; s < frame.scene_index; ++s) step += static_cast<int>(lesson.scenes[static_cast<std::size_t>(s)].steps.size());
  m.step = step;
  m.step_start = kStageTitleSeconds + frame.step->start_seconds;
  return m;
}

float stage_fade_weight(double since, int fps) {
  const double frame = 1.0 / std::max(1, fps);
  return static_cast<float>(std::clamp((since + frame) / kStageFadeSeconds, 0.0, 1.0));
}

}  // namespace ringviz::gui
