#pragma once
// The Memory tab's whole-iteration mode: a transformer's iteration on every GPU from the
// iteration model (core/training/iteration_model.h): a preset or custom shape, the sequence,
// micro-batch, recomputation, offloading, strategy, GPUs, GPU memory and accelerator; stacked
// bars per GPU at one moment, the sawtooth of the whole iteration with that moment marked, the
// peak and its cause, "fits / does not fit", host memory when offloading, and the time bar.
#include <optional>
#include <string>

#include "app/gui/layout/geometry.h"
#include "app/gui/state/centre_view_context.h"
#include "app/gui/views/iteration/iteration_plots.h"
#include "app/gui/text/strings.h"
#include "core/training/iteration_model.h"

namespace ringviz::gui {

class IterationView {
 public:
  static constexpr int kMaxGpus = 64;
  static constexpr int kAtPeak = -1;  // the moment shown until someone steps: the peak

  IterationView();

  void set_query(const IterationQuery& query);
  const IterationQuery& query() const { return query_; }
  void set_gpus(int gpus);

  // An index into the estimate's timeline, or kAtPeak.
  void set_moment(int event);
  int moment();  // resolved: the peak's event when kAtPeak

  void play() { playing_ = true; }
  void pause() { playing_ = false; }
  bool playing() const { return playing_; }
  void advance(double seconds);

  // The estimate on screen, or null with error() saying why the inputs were refused.
  const IterationEstimate* estimate();
  const std::string& error();

  void draw(const Rect& area, const ViewContext& context);
  // For an audience (presentation mode, recordings): one line saying what is modelled and
  // which moment is shown, instead of the controls.
  void set_audience(bool audience) { audience_ = audience; }

 private:
  // The language of the last draw()'s context: what the view's words and its measurements
  // outside draw() speak.
  const UiStrings& text() const { return ui_strings_for(language_); }
  Language language_ = Language::en;
  void rebuild();
  void draw_model_controls(float field, bool split);
  void draw_run_controls(float field);
  void draw_parallel_controls(float field);  // TP, SP, attention
  void draw_custom_controls(float field);
  void draw_stepper();

  IterationQuery query_;
  TransformerShape custom_;  // the custom shape's fields, kept while a preset is chosen
  bool dirty_ = true;
  std::optional<IterationEstimate> estimate_;
  std::string error_;
  int moment_ = kAtPeak;
  bool playing_ = false;
  double clock_ = 0;
  bool audience_ = false;
  std::vector<StrategyPeak> strategy_peaks_;  // DDP and ZeRO-1/2/3 for the same query
};

}  // namespace ringviz::gui
