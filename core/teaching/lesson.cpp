#include "core/teaching/lesson.h"
#include "core/teaching/video_frames.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <system_error>

namespace ringviz {

static_assert(spellings_are_unique(kViewNames) && lists_exactly(kViewNames, kAllViews));

double LessonStep::play_seconds() const {
  const std::optional<PositionRange>& moving = rounds ? rounds : iterations;
  return moving ? (moving->to - moving->from) * seconds_per_unit : 0.0;
}

double LessonScene::duration() const {
  double total = 0.0;
  for (const LessonStep& step : steps) total += step.duration();
  return total;
}

MemoryQuery memory_query(const LessonScene& scene, Strategy strategy) {
  MemoryQuery query;
  query.gpus = scene.config.ranks;
  query.order = scene.config.order;
  query.strategy = strategy;
  if (scene.memory) {
    query.parameters = scene.memory->params;
    query.convention = scene.memory->convention;
  }
  return query;
}

TrainingOptions training_options(const LessonScene& scene, TrainStrategy strategy) {
  TrainingOptions options;
  options.strategy = strategy;
  options.gpus = scene.config.ranks;
  options.dtype = scene.config.dtype;
  options.order = scene.config.order;
  if (scene.training) options.seed = scene.training->seed;
  return options;
}

double Lesson::duration() const {
  double total = 0.0;
  for (const LessonScene& scene : scenes) total += scene.duration();
  return total;
}

void retime_lesson(Lesson& lesson) {
  // Start times are accumulated in one fixed order so that every caller, and every frame of a
  // recording, sees bit-identical boundaries.
  double clock = 0.0;
  for (LessonScene& scene : lesson.scenes) {
    scene.start_seconds = clock;
    int round = 0;
    int iteration = 0;
    for (LessonStep& step : scene.steps) {
      step.start_seconds = clock;
      step.held_round = round;
      step.held_iteration = iteration;
      if (step.rounds) round = step.rounds->to;
      if (step.iterations) iteration = step.iterations->to;
      clock += step.duration();
    }
  }
}

namespace {

// Where a range stands `elapsed` seconds after it started playing: the last whole position
// reached and the fraction of the way to the next one.
void play_position(const PositionRange& range, double seconds_per_unit, double elapsed,
                   int& position, double& progress) {
  position = range.from;
  progress = 0.0;
  if (elapsed <= 0.0 || range.to == range.from) {
    if (elapsed > 0.0) position = range.to;
    return;
  }
  const double units = elapsed / seconds_per_unit;
  if (units >= range.to - range.from) {
    position = range.to;
    return;
  }
  const double whole = std::floor(units);
  position = range.from + static_cast<int>(whole);
  progress = units - whole;
  if (position >= range.to) {  // rounding at the very end of the range
    position = range.to;
    progress = 0.0;
  }
}

}  // namespace

LessonFrame lesson_frame(const Lesson& lesson, double seconds, Language language) {
  LessonFrame frame;
  if (lesson.scenes.empty() || lesson.scenes.back().steps.empty()) return frame;
  const double total = lesson.duration();
  frame.time = std::isnan(seconds) ? 0.0 : std::clamp(seconds, 0.0, total);

  // The active step is the last one that has started (boundaries belong to the later step);
  // zero-length steps cannot occur in a validated lesson.
  frame.scene_index = 0;
  frame.step_index = 0;
  for (std::size_t s = 0; s < lesson.scenes.size(); ++s) {
    const LessonScene& scene = lesson.scenes[s];
    for (std::size_t i = 0; i < scene.steps.size(); ++i)
      if (scene.steps[i].start_seconds <= frame.time) {
        frame.scene_index = static_cast<int>(s);
        frame.step_index = static_cast<int>(i);
      }
  }
  const LessonScene& scene = lesson.scenes[static_cast<std::size_t>(frame.scene_index)];
  const LessonStep& step = scene.steps[static_cast<std::size_t>(frame.step_index)];
  frame.scene = &scene;
  frame.step = &step;
  const double duration = step.duration();
  frame.step_time = std::clamp(frame.time - step.start_seconds, 0.0, duration);
  frame.step_progress = duration > 0.0 ? frame.step_time / duration : 1.0;

  const double playing = frame.step_time - step.pause_before;
  frame.round = step.held_round;
  frame.iteration = step.held_iteration;
  if (step.rounds)
    play_position(*step.rounds, step.seconds_per_unit, playing, frame.round, frame.round_progress);
  if (step.iterations)
    play_position(*step.iterations, step.seconds_per_unit, playing, frame.iteration,
                  frame.iteration_progress);

  frame.caption = step.caption.in(language);
  frame.highlight = &step.highlight;
  frame.zoom = step.zoom ? &*step.zoom : nullptr;
  frame.views = &scene.views;
  return frame;
}

long long lesson_frame_count(const Lesson& lesson, int fps) {
  return video_frame_count(lesson.duration(), fps);
}

std::vector<std::filesystem::path> list_lesson_files(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error))
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
  return files;
}

std::vector<std::filesystem::path> lesson_folder_candidates(const std::filesystem::path& executable) {
  if (const char* configured = std::getenv("RINGVIZ_LESSONS"); configured && *configured)
    return {std::filesystem::path(configured)};  // set: that folder alone, so a wrong one is said
  std::error_code error;
  const std::filesystem::path bin = std::filesystem::weakly_canonical(executable, error).parent_path();
  // Installed: <prefix>/bin/ringviz and <prefix>/share/ringviz/lessons (the CMake install rules).
  std::vector<std::filesystem::path> folders = {bin.parent_path() / "share" / "ringviz" / "lessons"};
  // Built inside the source tree (build/app/ringviz): its assets a few levels up.
  std::filesystem::path folder = bin;
  for (int level = 0; level < 5 && !folder.empty(); ++level) {
    folders.push_back(folder / "assets" / "lessons");
    if (folder == folder.parent_path()) break;
    folder = folder.parent_path();
  }
#ifdef RINGVIZ_SOURCE_LESSONS
  // Built anywhere else: the source tree it was built from, last (unless the walk reached it).
  const std::filesystem::path source(RINGVIZ_SOURCE_LESSONS);
  if (std::find(folders.begin(), folders.end(), source) == folders.end()) folders.push_back(source);
#endif
  return folders;
}

std::optional<std::filesystem::path> find_lesson_folder(const std::filesystem::path& executable) {
  std::error_code error;
  for (const std::filesystem::path& folder : lesson_folder_candidates(executable))
    if (std::filesystem::is_directory(folder, error)) return folder;
  return std::nullopt;
}

}  // namespace ringviz
