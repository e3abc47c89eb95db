#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/config.h"
#include "core/training/iteration_model.h"
#include "core/training/memory_model.h"
#include "core/model/text.h"
#include "core/training/training_run.h"

// Lessons: scripted walks through ringviz scenes for classrooms and recorded videos
// (assets/lessons/*.json, schema "ringviz.lesson/1", documented in docs/lessons.md).
//
// A lesson is data only. The player (GUI, `ringviz record`) renders on a deterministic clock:
// frame k shows time k / fps, and lesson_frame() says what that time looks like — which
// scene and step, which round is on screen and how far its transfers have travelled, the
// caption, the highlights, the zoom and the views. Nothing here depends on wall time.

namespace ringviz {

inline constexpr std::string_view kLessonSchema = "ringviz.lesson/1";
// The lesson `make run` records headless and the GUI opens first.
inline constexpr std::string_view kDefaultLessonFile = "05-allreduce-traffic.json";

// Bounds on what a lesson file may hold, checked while it is read (docs/architecture.md, "Reading input files"):
// far above any real lesson, low enough that a hostile file cannot take the memory or the
// minutes that a million scenes or a million-character caption would.
inline constexpr std::uintmax_t kMaxLessonFileBytes = std::uintmax_t{1} << 20;
inline constexpr std::size_t kMaxLessonScenes = 100;
inline constexpr std::size_t kMaxLessonSteps = 200;         // per scene
inline constexpr std::size_t kMaxLessonTextCharacters = 2000;  // a title, summary or caption
inline constexpr std::size_t kMaxLessonListEntries = 256;   // highlight and zoom lists

// The panels the GUI can show. The list is closed: a lesson naming anything else is rejected.
enum class View {
  ring,         // the GPUs on a ring: each GPU's chunks, the transfers of the round in flight
  round_table,  // the source article's table: GPU | sends | receives | holds after the round
  traffic,      // bytes sent and received per GPU, cumulative, next to 2(N-1)/N x M
  timeline,     // every round of the schedule along a time axis, phases coloured
  memory,       // model-state memory per GPU under the strategies of the scene's "memory"
  training,     // the scene's "training" run: loss and how far the GPUs' weights drift apart
  compare,      // before / after: every GPU's input next to what it holds at the end
  job,          // the scene's "open" job on a timeline: a lane per rank, compute and collectives
};
inline constexpr View kAllViews[] = {View::ring,     View::round_table, View::traffic,
                                     View::timeline, View::memory,      View::training,
                                     View::compare,  View::job};
inline constexpr EnumName<View> kViewNames[] = {
    {View::ring, "ring"}, {View::round_table, "round_table"}, {View::traffic, "traffic"},
    {View::timeline, "timeline"}, {View::memory, "memory"}, {View::training, "training"},
    {View::compare, "compare"}, {View::job, "job"}};
inline constexpr EnumNamer view_name{kViewNames};
inline constexpr EnumFinder parse_view{kViewNames};

// A string in every language ringviz speaks. Lessons must give all of them.
struct LocalizedText {
  std::string en;
  std::string zh;
  const std::string& in(Language language) const { return language == Language::zh ? zh : en; }
};

// A chunk to draw attention to: `slot` on one GPU, or on every GPU when `gpu` is absent.
struct SlotHighlight {
  std::optional<int> gpu;
  int slot = 0;
};

// A transfer of the scene's schedule, resolved from the lesson's filter (see Highlight).
struct TransferRef {
  int round = 1;  // 1-based, as in "round 1": the round that takes state round-1 to round
  int src = 0;
  int dst = 0;
  int slot = 0;
  bool operator==(const TransferRef&) const = default;
};

// What a step draws attention to. `transfers` is the lesson's filters resolved against the
// schedule at load time (every transfer matching round / src / slot, in round then src order).
struct Highlight {
  std::vector<int> gpus;
  std::vector<SlotHighlight> slots;
  std::vector<TransferRef> transfers;
  bool empty() const { return gpus.empty() && slots.empty() && transfers.empty(); }
};

// Magnify one view (by default the scene's first), optionally centred on some GPUs.
struct Zoom {
  View view = View::ring;
  std::vector<int> gpus;  // empty: the whole view
  double scale = 2.0;     // 1 ... 8
};

// An inclusive range of positions: rounds executed (0 = inputs ... round_count = done), or
// training iterations completed (0 ... the scene's training.iterations).
struct PositionRange {
  int from = 0;
  int to = 0;
};

// One caption on screen. Timeline of a step:
//   pause_before  hold the state at `from`
//   play          (to - from) x seconds_per_unit, the position moving from `from` to `to`
//   pause         hold the state at `to`
// A step with neither rounds nor iterations holds whatever the previous step of the scene left
// on screen (the scene's start for the first step) for pause_before + pause.
struct LessonStep {
  std::optional<PositionRange> rounds;
  std::optional<PositionRange> iterations;
  double seconds_per_unit = 1.5;  // "seconds_per_round" or "seconds_per_iteration"
  double pause_before = 0.0;
  double pause = 1.0;
  LocalizedText caption;
  Highlight highlight;
  std::optional<Zoom> zoom;

  // Filled by the loader: the state held when the step does not move that axis, and where the
  // step starts on the lesson clock.
  int held_round = 0;
  int held_iteration = 0;
  double start_seconds = 0.0;

  double play_seconds() const;
  double duration() const { return pause_before + play_seconds() + pause; }
};

// The memory view's model (core/training/memory_model.h): `params` parameters on the scene's GPUs,
// one column per strategy, counted with `convention` (paper: bf16 mixed precision + AdamW,
// 16 bytes per parameter under DDP).
struct LessonMemory {
  std::int64_t params = 7'000'000'000;
  std::vector<Strategy> strategies;  // in display order
  MemoryConvention convention = MemoryConvention::paper;
  // Set when the block names a "model": the memory view shows that transformer's whole
  // iteration (core/training/iteration_model.h) under the block's one strategy, on the scene's
  // GPUs, at the iteration's peak.
  std::optional<IterationQuery> iteration;
};

// The training view's run (core/training/training_run.h): the scene's GPUs train the same small model
// on different mini-batches for `iterations` steps, once per strategy (e.g. nosync and ddp).
struct LessonTraining {
  int iterations = 20;
  std::vector<TrainStrategy> strategies;  // in display order
  std::uint64_t seed = 1;
};

struct LessonScene {
  LocalizedText title;
  Config config;        // the collective on screen; Config defaults for anything not given
  // A recorded run the scene replays ("open": resolved against the folder above the lesson's,
  // so "captures/x.json" beside "lessons/"); `config` is then the recording's.
  std::optional<std::filesystem::path> open;
  // Where "open" is a job (docs/job-format.md): which of its collectives the ring steps (an
  // index into run_collectives of the job); `config` is that collective's.
  std::optional<std::size_t> collective;
  int round_count = 0;  // make_schedule(config).round_count()
  std::vector<View> views;
  std::optional<LessonMemory> memory;      // present exactly when views has View::memory
  std::optional<LessonTraining> training;  // present exactly when views has View::training
  std::vector<LessonStep> steps;
  double start_seconds = 0.0;  // filled by the loader

  double duration() const;
};

// What the memory and training views should compute for a scene: the scene's GPU count and
// order with the block's settings. Only for scenes that have the block.
MemoryQuery memory_query(const LessonScene& scene, Strategy strategy);
TrainingOptions training_options(const LessonScene& scene, TrainStrategy strategy);

struct Lesson {
  std::string source;  // the file it came from (or the name given to parse_lesson)
  LocalizedText title;
  LocalizedText summary;
  std::vector<LessonScene> scenes;

  double duration() const;  // seconds, the sum of every step's duration
};

// Parses and validates a lesson. Any problem throws InputError with one line
//   "<source>:<line>:<column>: <JSON pointer>: <field>: <problem>"
// e.g. "03.json:14:9: /scenes/0/steps/1/caption: zh: missing (a caption needs en and zh)".
// The pointer names the offending value, or the object lacking a field; unknown and duplicate
// fields are errors.
Lesson parse_lesson(std::string_view json_text, std::string_view source = "<lesson>");
Lesson load_lesson_file(const std::filesystem::path& path);

// The *.json files of a lesson folder, sorted by name (hence by their numeric prefix).
std::vector<std::filesystem::path> list_lesson_files(const std::filesystem::path& folder);
// Where the shipped lessons may be for `executable`, in the order they are tried:
// $RINGVIZ_LESSONS alone when it is set; otherwise <prefix>/share/ringviz/lessons for an
// executable in <prefix>/bin (installed), assets/lessons in the executable's folder and up to
// four folders above (a build inside the source tree), and the source tree's assets/lessons
// (a build elsewhere).
std::vector<std::filesystem::path> lesson_folder_candidates(const std::filesystem::path& executable);
// The first of those folders that exists.
std::optional<std::filesystem::path> find_lesson_folder(const std::filesystem::path& executable);

// Everything the player needs to draw the lesson at one instant.
struct LessonFrame {
  double time = 0.0;  // the time asked for, clamped to [0, duration]
  int scene_index = 0;
  int step_index = 0;
  const LessonScene* scene = nullptr;  // into the lesson passed to lesson_frame
  const LessonStep* step = nullptr;
  double step_time = 0.0;      // seconds since the step began
  double step_progress = 0.0;  // step_time / step duration, 0 ... 1

  // Rounds executed (the state to show) and how far the transfers of the next round have
  // travelled: while round_progress > 0, schedule round `round` (0-based; the "round + 1"
  // of the captions) is in flight.
  int round = 0;
  double round_progress = 0.0;
  // The same for the training view: iterations completed, and progress into the next one.
  int iteration = 0;
  double iteration_progress = 0.0;

  std::string_view caption;  // in the language asked for
  const Highlight* highlight = nullptr;
  const Zoom* zoom = nullptr;  // null: no zoom
  const std::vector<View>* views = nullptr;
};

// The frame at time `seconds` (clamped: before 0 is the first frame, from duration() on the
// final state of the last step). Step boundaries belong to the later step.
LessonFrame lesson_frame(const Lesson& lesson, double seconds, Language language);

// Fills every scene's and step's start_seconds and every step's held_round / held_iteration.
// The loader calls it; code that builds or edits a Lesson calls it again before playing.
void retime_lesson(Lesson& lesson);

// Frames a recording of the whole lesson at `fps` holds (video_frame_count of its duration).
long long lesson_frame_count(const Lesson& lesson, int fps);

}  // namespace ringviz
