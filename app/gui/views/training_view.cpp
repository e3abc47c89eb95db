#include "app/gui/views/training_view.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/gui/views/centre_view_draw.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

namespace {

const char* strategy_label(TrainStrategy strategy) {
  const UiStrings& t = view_strings();
  return strategy == TrainStrategy::ddp     ? t.training_ddp
         : strategy == TrainStrategy::zero2 ? t.training_zero2
                                            : t.training_nosync;
}

Rgb strategy_colour(TrainStrategy strategy, const ViewColours& colours) {
  if (strategy == TrainStrategy::zero2) return {168, 124, 236};  // violet: ddp and nosync take the phase colours
  return strategy == TrainStrategy::ddp ? colours.phase_all_gather : colours.phase_reduce_scatter;
}

// Every GPU holds bit-identical parameters after step `record`.
bool identical(const TrainingStepRecord& record) {
  return std::all_of(record.checksums.begin(), record.checksums.end(),
                     [&](std::uint64_t c) { return c == record.checksums.front(); });
}

std::string short_number(double value) {
  if (value == 0) return "0";
  const double a = std::fabs(value);
  if (a >= 0.01 && a < 10000) return format("%.3g", value);
  return format("%.1e", value);
}

}  // namespace

TrainingView::TrainingView() = default;
TrainingView::~TrainingView() = default;

void TrainingView::configure(int gpus, DType dtype, Order order, int iterations,
                             std::vector<TrainStrategy> strategies, std::uint64_t seed) {
  gpus_ = std::clamp(gpus, 1, kMaxGpus);
  dtype_ = dtype == DType::bf16 ? DType::bf16 : DType::f32;  // the run supports these two
  order_ = order;
  iterations_ = std::clamp(iterations, 1, kMaxIterations);
  if (!strategies.empty()) strategies_ = std::move(strategies);
  seed_ = seed;
  dirty_ = true;
}

void TrainingView::set_shown_iterations(double iterations) {
  shown_ = iterations < 0 ? -1 : std::min(iterations, static_cast<double>(iterations_));
  playing_ = false;
}

void TrainingView::play() {
  if (shown_ < 0 || shown_ >= iterations_) shown_ = 0;
  playing_ = true;
}

const std::vector<TrainingStepRecord>& TrainingView::history(int run) const {
  static const std::vector<TrainingStepRecord> none;
  const Run& r = runs_[static_cast<std::size_t>(run)];
  return r.run ? r.run->history() : none;
}

void TrainingView::rebuild() {
  dirty_ = false;
  runs_.clear();
  for (TrainStrategy strategy : strategies_) {
    Run& run = runs_.emplace_back();
    run.strategy = strategy;
    const TrainingOptions options{.strategy = strategy, .gpus = gpus_, .dtype = dtype_, .order = order_,
                                  .model = MlpShape{}, .adamw = AdamWOptions{}, .seed = seed_};
    try {
      validate_training_options(options);
      // One worker: the model is tiny and the GUI thread should not fight the ring view.
      run.backend = make_cpu_backend(1);
      run.run = std::make_unique<TrainingRun>(options, *run.backend);
    } catch (const std::exception& error) {
      run.error = error.what();
      run.run.reset();
    }
  }
}

void TrainingView::compute(int steps) {
  if (dirty_) rebuild();
  steps = std::min(steps, iterations_);
  for (Run& run : runs_) {
    if (!run.run) continue;
    try {
      while (run.run->steps_done() < steps) run.run->step();
    } catch (const std::exception& error) {
      run.error = error.what();
      run.run.reset();
    }
  }
}

bool TrainingView::busy() const {
  if (playing_ || dirty_) return true;
  for (const Run& run : runs_)
    if (run.run && run.run->steps_done() < iterations_) return true;
  return false;
}

void TrainingView::advance(double seconds) {
  if (!playing_ || seconds <= 0) return;
  // A whole run plays in about eight seconds, however many iterations it has.
  shown_ = std::min<double>(iterations_, shown_ + seconds * std::max(4.0, iterations_ / 8.0));
  if (shown_ >= iterations_) playing_ = false;
}

void TrainingView::draw_controls(const ViewContext& context) {
  const UiStrings& t = view_strings();
  const float field = std::round(110 * context.scale);
  int gpus = gpus_;
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt(t.training_gpus, &gpus, 1, kMaxGpus)) configure(gpus, dtype_, order_, iterations_, strategies_, seed_);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo(t.training_dtype, std::string(dtype_name(dtype_)).c_str())) {
    for (DType option : {DType::f32, DType::bf16})
      if (ImGui::Selectable(std::string(dtype_name(option)).c_str(), option == dtype_))
        configure(gpus_, option, order_, iterations_, strategies_, seed_);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.training_dtype_hint);
  ImGui::SameLine();
  int iterations = iterations_;
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt(t.training_iterations, &iterations, 10, 500))
    configure(gpus_, dtype_, order_, iterations, strategies_, seed_);
  ImGui::SameLine();
  int seed = static_cast<int>(seed_);
  ImGui::SetNextItemWidth(field * 0.8f);
  if (ImGui::InputInt(t.training_seed, &seed, 1, 10))
    configure(gpus_, dtype_, order_, iterations_, strategies_, static_cast<std::uint64_t>(std::max(0, seed)));

  if (ImGui::Button(playing_ ? t.pause : t.play)) {
    if (playing_) pause();
    else play();
  }
  ImGui::SameLine();
  float shown = static_cast<float>(shown_ < 0 ? iterations_ : shown_);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##training_shown", &shown, 0, static_cast<float>(iterations_),
                         format(t.training_shown, static_cast<int>(shown), iterations_).c_str()))
    set_shown_iterations(shown);
  hint_text(format(t.training_explained, static_cast<long long>(MlpShape{}.parameter_count()), gpus_).c_str());
}

void TrainingView::draw(const Rect& area, const ViewContext& context) {
  const UiStrings& t = view_strings();
  if (dirty_) rebuild();
  const ViewColours& colours = view_colours(context.theme);
  ImDrawList* dl = begin_view_window("##training_view", area, colours);
  draw_controls(context);
  if (dirty_) rebuild();

  // Fill the runs in a few steps per frame, up to what is shown (all of it when idle).
  const int wanted = shown_ < 0 ? iterations_ : std::max(static_cast<int>(std::ceil(shown_)), 0);
  int done = iterations_;
  for (const Run& run : runs_)
    if (run.run) done = std::min(done, run.run->steps_done());
  compute(std::min(iterations_, std::max(wanted, done + kStepsPerFrame)));
  int shown = wanted;
  for (const Run& run : runs_)
    if (run.run) shown = std::min(shown, run.run->steps_done());

  const float line = ImGui::GetTextLineHeight();
  const float pad = std::round(line * 0.5f);
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  const Rect body{area.x + pad, cursor.y + pad * 0.5f, area.w - 2 * pad, std::max(0.0f, area.bottom() - cursor.y - pad)};

  // One log scale for every loss plot, so the strategies can be compared by eye.
  double low = 1e300, high = 0;
  for (int i = 0; i < run_count(); ++i)
    for (const TrainingStepRecord& record : history(i))
      for (double loss : record.loss)
        if (loss > 0) {
          low = std::min(low, loss);
          high = std::max(high, loss);
        }
  if (!(high > 0)) {
    low = 0.01;
    high = 1;
  }
  const double log_min = std::floor(std::log10(low)), log_max = std::max(log_min + 1, std::ceil(std::log10(high)));

  const float loss_h = std::round(body.h * 0.52f);
  const int count = run_count();
  const float gap = std::round(line * 1.2f);
  const float width = count > 0 ? (body.w - gap * (count - 1)) / count : body.w;
  for (int i = 0; i < count; ++i)
    draw_loss(dl, {body.x + i * (width + gap), body.y, width, loss_h}, runs_[static_cast<std::size_t>(i)], log_min,
              log_max, shown, context);
  draw_spread(dl, {body.x, body.y + loss_h + line * 0.8f, body.w, body.h - loss_h - line * 0.8f}, shown, context);
  (void)t;
  ImGui::End();
}

void TrainingView::draw_loss(ImDrawList* dl, const Rect& area, const Run& run, double log_min, double log_max,
                             int shown, const ViewContext& context) {
  const UiStrings& t = view_strings();
  const ViewColours& colours = view_colours(context.theme);
  const float line = ImGui::GetTextLineHeight();
  const ImU32 muted = to_imcol(colours.muted_text);
  dl->AddText(ImVec2(area.x, area.y), to_imcol(strategy_colour(run.strategy, colours)), strategy_label(run.strategy));
  dl->AddText(ImVec2(area.x + ImGui::CalcTextSize(strategy_label(run.strategy)).x + line * 0.5f, area.y), muted,
              t.training_loss_title);
  if (!run.error.empty()) {
    dl->AddText(nullptr, 0, ImVec2(area.x, area.y + line * 1.3f), to_imcol(colours.warning), run.error.c_str(), nullptr,
                area.w);
    return;
  }
  const float axis_w = ImGui::CalcTextSize("1e-00").x + line * 0.3f;
  const Rect plot{area.x + axis_w, area.y + line * 1.5f, std::max(0.0f, area.w - axis_w),
                  std::max(line, area.h - line * 2.9f)};
  dl->AddRectFilled(to_imvec(plot.min()), to_imvec(plot.max()), to_imcol(colours.box_background, 0.5f));
  auto y_of = [&](double loss) {
    const double l = std::log10(std::max(loss, 1e-30));
    return plot.bottom() - static_cast<float>((l - log_min) / (log_max - log_min)) * plot.h;
  };
  const int iterations = iterations_;
  auto x_of = [&](int step) { return plot.x + plot.w * static_cast<float>(step) / std::max(1, iterations); };
  for (double e = log_min; e <= log_max + 1e-9; e += 1) {
    const float y = std::round(y_of(std::pow(10.0, e)));
    dl->AddLine(ImVec2(plot.x, y), ImVec2(plot.right(), y), to_imcol(colours.box_border, 0.45f));
    const std::string label = format("1e%d", static_cast<int>(e));
    dl->AddText(ImVec2(plot.x - ImGui::CalcTextSize(label.c_str()).x - line * 0.25f, y - line * 0.5f), muted, label.c_str());
  }
  if (!run.run) return;
  const std::vector<TrainingStepRecord>& records = run.run->history();
  // Later GPUs on top; with synchronisation the curves still differ (each GPU's own batch).
  for (int g = 0; g < gpus_; ++g) {
    std::vector<ImVec2> points;
    for (int k = 0; k < shown && k < static_cast<int>(records.size()); ++k)
      points.push_back(ImVec2(x_of(records[static_cast<std::size_t>(k)].step),
                              y_of(records[static_cast<std::size_t>(k)].loss[static_cast<std::size_t>(g)])));
    polyline(dl, points, to_imcol(rank_colour(g, context.palette)), std::max(1.0f, 1.5f * context.scale));
  }
  const std::string axis = format(t.training_axis_iterations, iterations);
  dl->AddText(ImVec2(plot.right() - ImGui::CalcTextSize(axis.c_str()).x, plot.bottom() + line * 0.15f), muted, axis.c_str());
  if (shown > 0 && shown <= static_cast<int>(records.size())) {
    const TrainingStepRecord& last = records[static_cast<std::size_t>(shown - 1)];
    const std::string mean = format(t.training_mean_loss, short_number(last.mean_loss).c_str());
    dl->AddText(ImVec2(plot.x, plot.bottom() + line * 0.15f), to_imcol(colours.text), mean.c_str());
  }
}

void TrainingView::draw_spread(ImDrawList* dl, const Rect& area, int shown, const ViewContext& context) {
  const UiStrings& t = view_strings();
  const ViewColours& colours = view_colours(context.theme);
  const float line = ImGui::GetTextLineHeight();
  const ImU32 muted = to_imcol(colours.muted_text);
  dl->AddText(ImVec2(area.x, area.y), to_imcol(colours.text), t.training_spread_title);
  dl->AddText(ImVec2(area.x + ImGui::CalcTextSize(t.training_spread_title).x + line * 0.6f, area.y), muted,
              t.training_spread_hint);

  // The verdict of each run, one line each, on the right of the plot.
  const float verdict_w = std::min(area.w * 0.38f, line * 26);
  const float axis_w = ImGui::CalcTextSize("0.000").x + line * 0.4f;
  const Rect plot{area.x + axis_w, area.y + line * 1.5f, std::max(0.0f, area.w - axis_w - verdict_w - line),
                  std::max(line, area.h - line * 2.8f)};
  dl->AddRectFilled(to_imvec(plot.min()), to_imvec(plot.max()), to_imcol(colours.box_background, 0.5f));
  double top = 0;
  for (int i = 0; i < run_count(); ++i) {
    const auto& records = history(i);
    for (int k = 0; k < shown && k < static_cast<int>(records.size()); ++k)
      top = std::max(top, records[static_cast<std::size_t>(k)].parameter_spread);
  }
  const double y_max = top > 0 ? nice_ceiling(top, 4) : 1.0;
  auto y_of = [&](double v) { return plot.bottom() - static_cast<float>(v / y_max) * plot.h; };
  auto x_of = [&](int step) { return plot.x + plot.w * static_cast<float>(step) / std::max(1, iterations_); };
  const double tick = nice_step(y_max, 4);
  for (double v = 0; v <= y_max + tick * 1e-6; v += tick) {
    const float y = std::round(y_of(v));
    dl->AddLine(ImVec2(plot.x, y), ImVec2(plot.right(), y), to_imcol(colours.box_border, v == 0 ? 1.0f : 0.45f));
    const std::string label = short_number(v);
    dl->AddText(ImVec2(plot.x - ImGui::CalcTextSize(label.c_str()).x - line * 0.3f, y - line * 0.5f), muted, label.c_str());
  }
  const std::string axis = format(t.training_axis_iterations, iterations_);
  dl->AddText(ImVec2(plot.right() - ImGui::CalcTextSize(axis.c_str()).x, plot.bottom() + line * 0.15f), muted, axis.c_str());

  float y = plot.y;
  const float x = plot.right() + line;
  for (int i = 0; i < run_count(); ++i) {
    const Run& run = runs_[static_cast<std::size_t>(i)];
    const Rgb colour = strategy_colour(run.strategy, colours);
    const auto& records = history(i);
    std::vector<ImVec2> points;
    for (int k = 0; k < shown && k < static_cast<int>(records.size()); ++k)
      points.push_back(ImVec2(x_of(records[static_cast<std::size_t>(k)].step),
                              y_of(records[static_cast<std::size_t>(k)].parameter_spread)));
    // Lines that lie on each other (DDP and ZeRO-2 at zero) stay visible: later ones thinner.
    const float thickness = std::max(1.0f, (3.2f - 1.0f * i) * context.scale);
    polyline(dl, points, to_imcol(colour), thickness);

    dl->AddRectFilled(ImVec2(x, y + line * 0.3f), ImVec2(x + line * 0.9f, y + line * 0.7f), to_imcol(colour));
    dl->AddText(ImVec2(x + line * 1.2f, y), to_imcol(colour), strategy_label(run.strategy));
    std::string verdict;
    if (!run.error.empty()) verdict = run.error;
    else if (shown == 0 || records.empty()) verdict = t.training_not_started;
    else {
      const TrainingStepRecord& last = records[static_cast<std::size_t>(std::min<std::size_t>(shown, records.size()) - 1)];
      verdict = identical(last) ? format(t.training_identical, last.step)
                                : format(t.training_drifted, last.step, short_number(last.parameter_spread).c_str());
    }
    dl->AddText(nullptr, 0, ImVec2(x + line * 1.2f, y + line * 1.1f), to_imcol(colours.text), verdict.c_str(), nullptr,
                verdict_w - line * 1.2f);
    y += line * 3.6f;
  }
}

}  // namespace ringviz::gui
