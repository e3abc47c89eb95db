#pragma once
// The memory view: one stacked bar per GPU (parameters, gradients, optimizer states,
// transient buffers) for DDP next to a ZeRO stage, at one step of a training iteration,
// against the chosen GPU's capacity. What a GPU owns alone (its shard) takes that GPU's ring
// colour, so the bars and the ring view tell the same story.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/state/centre_view_context.h"
#include "app/gui/layout/geometry.h"
#include "app/gui/views/iteration/iteration_view.h"
#include "app/gui/views/iteration/measured_panel.h"
#include "app/gui/views/iteration/memory_beats.h"
#include "app/gui/state/playback.h"
#include "app/gui/render/theme.h"
#include "app/gui/text/strings.h"
#include "core/training/iteration_model.h"
#include "core/training/memory_model.h"
#include "core/training/training_timeline.h"

struct ImDrawList;

namespace ringviz::gui {

// "Peak 44.2 GB on GPU 3 at step 12 (what step 12 does): gradients (1.2 GB) and transient
// buffers (0.1 GB) on top of the parameters and optimizer states", in the UI language.
std::string peak_text(const IterationTimeline& timeline, Language language);

// What the tab shows: model states under DDP beside a ZeRO stage (the default), or a
// transformer's whole iteration (views/iteration/iteration_view.h).
// measured: a recorded job's measured bytes beside the model's (views/iteration/measured_panel.h),
// offered when the open job measured its memory.
enum class MemoryMode { model_states, iteration, measured };

// The ring configuration that shows `call`'s rounds on `gpus` GPUs with a couple of elements per
// slot: the same rounds as the real bucket, with numbers a class can read.
Config readable_ring_config(const CollectiveCall& call, int gpus, Order order);

class MemoryView {
 public:
  static constexpr int kMaxGpus = 64;  // beyond this the bars are thinner than a pixel or two

  // Shows `model`'s whole iteration instead of the model states (--memory-model).
  void show_iteration_of(const TransformerShape& model);

  // The model on screen. `strategies` are the columns, left to right (1 to 4 of them).
  void set_model(std::int64_t parameters, int gpus, std::vector<Strategy> strategies,
                 MemoryConvention convention, Order order = Order::seed);
  void set_capacity_gb(double capacity_gb) { capacity_gb_ = capacity_gb; }
  void set_bucket_bytes(std::int64_t bytes);
  // The iteration runs on one clock of beats (views/iteration/memory_beats.h), shared by every column
  // and by the ring picture beside the bars. `transport()` is what Space, the arrow keys and
  // the controls bar drive while the Memory tab is shown.
  Playback& transport();
  // Model states at rest, as `ringviz memory` prints them (the optimizer step's memory), until
  // the clock moves.
  void rest();
  bool at_rest() const { return resting(); }
  static constexpr int kAtOptimizerStep = -1;
  // The step of the longest column (kAtOptimizerStep: at rest); set_step puts the clock at its
  // first beat.
  void set_step(int step);
  int step() const;
  int step_count() const;  // the longest column's steps

  void play();
  void pause() { clock_.pause(); }
  bool playing() const { return clock_.animating() || iteration_.playing(); }
  void advance(double seconds);

  // The lesson player's direction (a lesson moves the ring): the clock goes to the last step
  // whose collective is `op` (DDP's all-reduce, ZeRO's reduce-scatter or all-gather), `rounds`
  // into it. False when no column has such a step.
  bool follow_ring(Op op, double rounds);
  // True while the clock is where follow_ring put it: the ring leads, the bars follow.
  bool led_by_ring() const { return led_ && !clock_.animating() && clock_.position() == led_position_; }
  // The collective the ring picture shows at the clock: the followed column's step, with a
  // readable element count, and how many of its rounds have passed. Empty at rest and during
  // compute steps.
  struct RingCall {
    Config config;
    double position = 0;
    std::string purpose;
  };
  std::optional<RingCall> ring_call();
  // The colour of every beat of the followed column (the controls bar's track).
  std::vector<Rgb> beat_colours(const ViewColours& colours);
  // What the ring picture beside the bars shows, in words (its caption).
  std::string ring_words();
  // For an audience (presentation mode, recordings): the chart without any control.
  void set_audience(bool audience) {
    audience_ = audience;
    iteration_.set_audience(audience);
  }

  void draw(const Rect& area, const ViewContext& context);

  MemoryMode mode() const { return mode_; }
  void set_mode(MemoryMode mode) { mode_ = mode; }
  IterationView& iteration() { return iteration_; }
  const MeasuredMemoryPanel& measured() const { return measured_; }

  // The columns as computed (rebuilt lazily), for tests and the lesson player.
  struct Column {
    Strategy strategy = Strategy::ddp;
    MemoryEstimate estimate;
    IterationTimeline timeline;
    std::vector<std::int64_t> peak_per_gpu;  // the most each GPU holds at any step
    StepBeats beats;
    SentBytes sent;
    std::string error;                       // set when the timeline could not be built
  };
  const std::vector<Column>& columns();
  std::int64_t parameters() const { return parameters_; }
  int gpus() const { return gpus_; }

 private:
  // The language of the last draw()'s context: what the view's words and its measurements
  // outside draw() speak.
  const UiStrings& text() const { return ui_strings_for(language_); }
  Language language_ = Language::en;
  void rebuild();
  void draw_controls(const ViewContext& context);
  // False when the column has no room for a readable chart.
  bool draw_column(ImDrawList* dl, const Rect& area, const Column& column, double y_max, const ViewContext& context);
  std::string headline();
  StepMoment column_moment(const Column& column) const;
  int followed_column() const;
  int longest_column() const;
  bool resting() const;
  void seat_at_rest();
  void settle();  // forgets the rest once the clock has moved

  std::int64_t parameters_ = 7'000'000'000;
  int gpus_ = 4;
  std::vector<Strategy> strategies_{Strategy::ddp, Strategy::zero2};
  MemoryConvention convention_ = MemoryConvention::paper;
  Order order_ = Order::seed;
  double capacity_gb_ = kDefaultGpuMemoryBytes / 1e9;  // the GPU lessons and the CLI measure against
  std::int64_t bucket_bytes_ = kDefaultBucketBytes;
  Playback clock_;
  bool at_rest_ = true;
  double rest_position_ = 0;
  bool led_ = false;
  double led_position_ = 0;
  int follow_ = -1;  // the column the ring picture follows; -1: followed_column()
  bool audience_ = false;
  bool dirty_ = true;
  std::vector<Column> columns_;
  MemoryMode mode_ = MemoryMode::model_states;
  IterationView iteration_;
  MeasuredMemoryPanel measured_;
};

}  // namespace ringviz::gui
