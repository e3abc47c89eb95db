#pragma once
// The memory view: one stacked bar per GPU (parameters, gradients, optimizer states,
// transient buffers) for DDP next to a ZeRO stage, at one step of a training iteration,
// against the chosen GPU's capacity. What a GPU owns alone (its shard) takes that GPU's ring
// colour, so the bars and the ring view tell the same story.
#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/views/centre_view_context.h"
#include "app/gui/layout/geometry.h"
#include "app/gui/views/iteration/iteration_view.h"
#include "core/training/iteration_model.h"
#include "core/training/memory_model.h"
#include "core/training/training_timeline.h"

struct ImDrawList;

namespace ringviz::gui {

// "Peak 44.2 GB on GPU 3 at step 12 (what step 12 does): gradients (1.2 GB) and transient
// buffers (0.1 GB) on top of the parameters and optimizer states", in the UI language.
std::string peak_text(const IterationTimeline& timeline);

// What the tab shows: model states under DDP beside a ZeRO stage (the default), or a
// transformer's whole iteration (views/iteration/iteration_view.h).
enum class MemoryMode { model_states, iteration };
// The mode and preset a new MemoryView opens on: set from --memory-model before the window exists.
void set_startup_iteration_model(const TransformerShape* preset);

class MemoryView {
 public:
  static constexpr int kMaxGpus = 64;  // beyond this the bars are thinner than a pixel or two

  MemoryView();

  // The model on screen. `strategies` are the columns, left to right (1 to 4 of them).
  void set_model(std::int64_t parameters, int gpus, std::vector<Strategy> strategies,
                 MemoryConvention convention, Order order = Order::seed);
  void set_capacity_gb(double capacity_gb) { capacity_gb_ = capacity_gb; }
  void set_bucket_bytes(std::int64_t bytes);
  // The shared step of the iteration (clamped per column); kAtOptimizerStep shows the model
  // states at rest, which is what `ringviz memory` prints.
  static constexpr int kAtOptimizerStep = -1;
  void set_step(int step);
  int step() const { return step_; }
  int step_count() const;  // the longest column's steps

  void play() { playing_ = true; }
  void pause() { playing_ = false; }
  bool playing() const { return playing_ || iteration_.playing(); }
  void advance(double seconds);

  void draw(const Rect& area, const ViewContext& context);

  MemoryMode mode() const { return mode_; }
  void set_mode(MemoryMode mode) { mode_ = mode; }
  IterationView& iteration() { return iteration_; }

  // The columns as computed (rebuilt lazily), for tests and the lesson player.
  struct Column {
    Strategy strategy = Strategy::ddp;
    MemoryEstimate estimate;
    IterationTimeline timeline;
    std::vector<std::int64_t> peak_per_gpu;  // the most each GPU holds at any step
    std::string error;                       // set when the timeline could not be built
  };
  const std::vector<Column>& columns();
  std::int64_t parameters() const { return parameters_; }
  int gpus() const { return gpus_; }

 private:
  void rebuild();
  void draw_controls(const ViewContext& context);
  void draw_column(ImDrawList* dl, const Rect& area, const Column& column, double y_max,
                   const ViewContext& context);
  int column_step(const Column& column) const;

  std::int64_t parameters_ = 7'000'000'000;
  int gpus_ = 4;
  std::vector<Strategy> strategies_{Strategy::ddp, Strategy::zero2};
  MemoryConvention convention_ = MemoryConvention::paper;
  Order order_ = Order::seed;
  double capacity_gb_ = kDefaultGpuMemoryBytes / 1e9;  // the GPU lessons and the CLI measure against
  std::int64_t bucket_bytes_ = kDefaultBucketBytes;
  int step_ = kAtOptimizerStep;
  bool playing_ = false;
  double step_clock_ = 0;
  bool dirty_ = true;
  std::vector<Column> columns_;
  MemoryMode mode_ = MemoryMode::model_states;
  IterationView iteration_;
};

}  // namespace ringviz::gui
