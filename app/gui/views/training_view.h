#pragma once
// The training view: the same small model trained on N simulated GPUs with three strategies
// (ddp, zero2, nosync from core/training/training_run.h), every byte between GPUs going through
// ringviz's collectives. A loss curve per GPU per strategy, and how far the GPUs' parameters
// drift apart: not at all under DDP and ZeRO-2, more and more without synchronisation.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/views/centre_view_context.h"
#include "app/gui/layout/geometry.h"
#include "core/engine/backend.h"
#include "core/training/training_run.h"

struct ImDrawList;

namespace ringviz::gui {

class TrainingView {
 public:
  static constexpr int kMaxGpus = 8;
  static constexpr int kMaxIterations = 2000;
  // Steps computed per frame and run, so a long run fills in without freezing the window.
  static constexpr int kStepsPerFrame = 20;

  TrainingView();
  ~TrainingView();

  void configure(int gpus, DType dtype, Order order, int iterations, std::vector<TrainStrategy> strategies,
                 std::uint64_t seed = 1);
  int gpus() const { return gpus_; }
  int iterations() const { return iterations_; }
  // How many iterations the plots show (the lesson clock's iteration + progress); the runs
  // compute at least that many. Negative: all of them.
  void set_shown_iterations(double iterations);
  double shown_iterations() const { return shown_; }

  void play();
  void pause() { playing_ = false; }
  bool playing() const { return playing_; }
  // True while steps remain to be computed or the plots are playing.
  bool busy() const;
  void advance(double seconds);

  // Computes every run up to `steps` iterations now (tests; the GUI spreads it over frames).
  void compute(int steps);
  int run_count() const { return static_cast<int>(runs_.size()); }
  TrainStrategy strategy(int run) const { return runs_[static_cast<std::size_t>(run)].strategy; }
  const std::vector<TrainingStepRecord>& history(int run) const;
  const std::string& error(int run) const { return runs_[static_cast<std::size_t>(run)].error; }

  void draw(const Rect& area, const ViewContext& context);

 private:
  struct Run {
    TrainStrategy strategy = TrainStrategy::ddp;
    std::unique_ptr<Backend> backend;
    std::unique_ptr<TrainingRun> run;
    std::string error;
  };
  void rebuild();
  void draw_controls(const ViewContext& context);
  void draw_loss(ImDrawList* dl, const Rect& area, const Run& run, double log_min, double log_max, int shown,
                 const ViewContext& context);
  void draw_spread(ImDrawList* dl, const Rect& area, int shown, const ViewContext& context);

  int gpus_ = 4;
  DType dtype_ = DType::f32;
  Order order_ = Order::seed;
  int iterations_ = 100;
  std::vector<TrainStrategy> strategies_{TrainStrategy::ddp, TrainStrategy::zero2, TrainStrategy::nosync};
  std::uint64_t seed_ = 1;
  double shown_ = -1;
  bool playing_ = false;
  bool dirty_ = true;
  std::vector<Run> runs_;
};

}  // namespace ringviz::gui
