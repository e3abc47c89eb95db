#pragma once
// How long a recording of a lesson lasts. The recorder (app/gui/hosts), the stage's clock
// (app/gui/stage) and `ringviz lessons` all read it here, so that the length the listing prints
// is the length `ringviz record` writes.
#include "core/teaching/lesson.h"

namespace ringviz {

// A couple of seconds for each card, long enough to read a title.
inline constexpr double kTitleCardSeconds = 2.5;
inline constexpr double kEndCardSeconds = 2.5;

// Whether a recording frames the lesson with a title card before it and an end card after it:
// the stage layout does, the app layout (the desktop window) shows the lesson alone.
enum class LessonCards { none, title_and_end };
// What `ringviz record --lesson` does without --layout (its default layout is the stage; a GUI
// test holds the recorder to it).
inline constexpr LessonCards kRecordedLessonCards = LessonCards::title_and_end;

// Seconds of video a recording of the whole lesson holds: the lesson's duration(), plus both
// cards when there are cards.
double recorded_lesson_seconds(const Lesson& lesson, LessonCards cards);

}  // namespace ringviz
