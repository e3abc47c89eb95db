#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "app/gui/render/theme.h"
#include "app/gui/state/playback.h"
#include "core/model/config.h"
#include "core/model/enum_table.h"
#include "core/model/text.h"
#include "core/teaching/lesson_recording.h"

namespace ringviz::gui {

// How a recording lays out its frames: the stage (the view large with its caption, for
// explainer videos; app/gui/stage) or the whole desktop window, as the GUI shows it.
enum class RecordLayout { stage, app };
inline constexpr EnumName<RecordLayout> kRecordLayoutNames[] = {{RecordLayout::stage, "stage"},
                                                                {RecordLayout::app, "app"}};

// What `ringviz record` renders: a lesson, or (without one) a collective played once at 1x.
struct RecordRequest {
  std::optional<std::filesystem::path> lesson;
  std::optional<std::string> open;  // a ringviz.trace/1 document to replay (instead of `config`)
  Config config;  // used without a lesson
  BackendChoice backend = BackendChoice::automatic;
  // The video; empty with a --dump-layout folder: the layouts alone, nothing drawn or encoded
  // (layouts_only).
  std::string out;
  int width = 1920;
  int height = 1080;
  int fps = 60;
  Language language = Language::en;
  double from = 0;                 // frame k shows time from + k / fps
  std::optional<double> seconds;  // only S seconds (past the end: the final state)
  std::string dump_layout;        // the last frame's layout JSON, or a folder ("DIR/") for one per frame
  std::optional<ThemeKind> theme;
  std::optional<PaletteKind> palette;
  float ui_scale = 0;  // 0: from the height (1 up to 720 pixels, 1.5 at 1080)
  bool progress = true;  // a progress line on stderr when it is a terminal
  bool verbose = false;  // --verbose: why the backend is the CPU, once the inputs were accepted
  RecordLayout layout = RecordLayout::stage;
  // Stage only, PNG frames only: no background (alpha 0), for compositing.
  bool transparent = false;
};

// A recording that writes each frame's layout and no video (no --out, a --dump-layout folder):
// what a test of the layouts needs, without drawing or encoding a frame.
bool layouts_only(const RecordRequest& request);

// Whether a lesson recorded in `layout` opens and closes on cards (the stage does).
LessonCards lesson_cards(RecordLayout layout);
// Seconds of title card before the lesson's time 0 in the video this request records (0 when
// there is none: the app layout, or a collective without a lesson). Lesson time t is at video
// time t + stage_title_seconds(request) - request.from, e.g. for subtitles.
double stage_title_seconds(const RecordRequest& request);
// Throws InputError when the stage options do not go together: a transparent background needs
// the stage and PNG frames (a video has no alpha).
void check_stage_options(const RecordRequest& request);

// Renders every frame headless on the deterministic clock (frame k shows time k / fps) and
// writes them to request.out. Returns the exit code (HostStatus in app/gui/runtime/frame_host.h):
// 0, 1 runtime failure (ffmpeg missing or failing, disk full), 2 no OpenGL context, 130/143
// interrupted. Throws InputError on bad input.
int record_headless(const RecordRequest& request);

// The collective alone (no lesson): rest on the inputs, play every round at 1x, rest on the
// result. Seconds in all (every round kSecondsPerRound long), and for the GUI's playback, whose
// rounds may each last their own time (a replay), seconds in all and the position at time t.
double collective_recording_seconds(int rounds);
double playback_recording_seconds(const Playback& playback);
double playback_position_at(double seconds, const Playback& playback);

// The UI scale a recording of `height` pixels uses when none is given.
float recording_ui_scale(int height);

}  // namespace ringviz::gui
