#include "core/teaching/lesson_recording.h"

namespace ringviz {

double recorded_lesson_seconds(const Lesson& lesson, LessonCards cards) {
  if (cards == LessonCards::none) return lesson.duration();
  return kTitleCardSeconds + lesson.duration() + kEndCardSeconds;
}

}  // namespace ringviz
