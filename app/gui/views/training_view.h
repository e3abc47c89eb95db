#pragma once
// The training view: the same small model trained on N simulated GPUs with three strategies
// (ddp, zero2, nosync from core/training/training_run.h), every byte between GPUs going through
// ringviz's collectives. A loss curve per GPU per strategy, and how far the GPUs' parameters
// drift apart: not at all under DDP and ZeRO-2, more and more without synchronisation.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/state/centre_view_context.h"
#include "app/gui/plots/view_text.h"
#include "app/gui/layout/geometry.h"
#include "app/gui/text/strings.h"
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
  // The language of the last draw()'s context: what the view's words and its measurements
  // outside draw() speak.
  const UiStrings& text() const { return ui_strings_for(language_); }
  Language language_ = Language::en;
  struct Run {
    TrainStrategy strategy = TrainStrategy::ddp;
    std::unique_ptr<Backend> backend;
    std::unique_ptr<TrainingRun> run;
    std::string error;
  };
  // The texts around the plots, measured for the view's body, and the least height the plots
  // need with them (see draw()).
  struct PlotTexts {
    float loss_w = 0, loss_gap = 0;   // each loss plot's width and the gap between them
    bool title_one_line = true;       // "DDP loss per GPU (log scale)", else the strategy above
    WrappedText loss_title;           // the title under the strategy when not on one line
    float loss_title_h = 0;
    float title_pitch = 0;            // from the title's first line to its second
    float loss_gutter = 0;            // the decade labels' column
    std::string caption;              // "iteration (of N)"
    bool loss_caption = true;         // the loss plots show the caption
    bool caption_beside = true;       // on the mean-loss row, else on a row of its own
    float loss_bottom_h = 0;
    float row_pitch = 0;              // from the mean-loss row to the caption's own row
    float loss_min = 0;               // a loss plot's least height, texts included
    bool spread_hint_beside = true;   // the spread plot's hint beside its title, else wrapped under
    WrappedText spread_hint;
    float spread_title_h = 0;
    float spread_title_pitch = 0;
    float legend_w = 0, legend_h = 0;  // the spread plot's legend column
    std::vector<WrappedText> verdicts;  // each starts after its strategy's name
    std::vector<float> verdict_x;       // where a verdict's first line starts, from the name's left
    float spread_caption_h = 0;
    float spread_min = 0;
    float sections_gap = 0;
    float min_h = 0;                  // everything below the controls
  };
  // A plot keeps at least this many lines of height; less and the view shows its notice.
  static constexpr float kMinPlotLines = 3.0f;

  void rebuild();
  void prepare();
  std::vector<float> settings_widths(const ViewContext& context) const;
  std::vector<float> player_widths() const;
  void draw_settings(const ViewContext& context, float right);
  void draw_player(float right);
  PlotTexts measure_plots(const Rect& body, double log_min, double log_max, int shown, bool loss_captions,
                          bool wide_legend) const;
  void draw_loss(ImDrawList* dl, TextBoard& board, const Rect& area, const Run& run, double log_min, double log_max,
                 int shown, const PlotTexts& m, const ViewContext& context);
  void draw_spread(ImDrawList* dl, TextBoard& board, const Rect& area, int shown, const PlotTexts& m,
                   const ViewContext& context);

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
  // Set by prepare() each frame: the iterations drawn and the loss plots' decades.
  int shown_now_ = 0;
  double log_min_ = -2, log_max_ = 0;
};

}  // namespace ringviz::gui
