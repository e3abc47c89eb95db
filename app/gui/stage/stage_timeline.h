#pragma once
// A stage recording's clock: a title card, the lesson, an end card, and where the picture
// cross-fades (docs/recording.md, "The stage"). Pure, tested without GL.
#include "core/teaching/lesson.h"
#include "core/teaching/lesson_recording.h"

namespace ringviz::gui {

// The cards are core's (core/teaching/lesson_recording.h), which times every recording; a
// short dissolve between scenes (and between a card and the lesson).
inline constexpr double kStageTitleSeconds = kTitleCardSeconds;
inline constexpr double kStageEndSeconds = kEndCardSeconds;
inline constexpr double kStageFadeSeconds = 0.4;

enum class StagePart { title, lesson, end };

// What the video shows at one instant.
struct StageMoment {
  StagePart part = StagePart::title;
  double lesson_seconds = 0;  // the lesson clock: 0 on the title card, the end on the end card
  // The picture changes wholesale when `scene` changes (-1 title card, the scene's index, the
  // scene count on the end card), and only the caption when `step` does (the step's index
  // counted over the whole lesson); each began at the video time given beside it.
  int scene = -1;
  double scene_start = 0;
  int step = -1;
  double step_start = 0;
};

// The video's length: both cards and the lesson (recorded_lesson_seconds with cards).
double stage_video_seconds(const Lesson& lesson);
// `video_seconds` from the start of the title card (clamped to the video).
StageMoment stage_moment(const Lesson& lesson, double video_seconds);

// The weight of the new picture `since` seconds after a change, in a video of `fps` frames a
// second: it reaches 1 after kStageFadeSeconds, and the first frame after the change already
// shows some of it (at 1 fps there is no fade at all).
float stage_fade_weight(double since, int fps);

}  // namespace ringviz::gui
