#include "app/gui/views/training_view.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/plots/plot_axes.h"
#include "app/gui/views/too_small_notice.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

namespace {

const char* strategy_label(const UiStrings& t, TrainStrategy strategy) {
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

void TrainingView::prepare() {
  if (dirty_) rebuild();
  // Fill the runs in a few steps per frame, up to what is shown (all of it when idle).
  const int wanted = shown_ < 0 ? iterations_ : std::max(static_cast<int>(std::ceil(shown_)), 0);
  int done = iterations_;
  for (const Run& run : runs_)
    if (run.run) done = std::min(done, run.run->steps_done());
  compute(std::min(iterations_, std::max(wanted, done + kStepsPerFrame)));
  shown_now_ = wanted;
  for (const Run& run : runs_)
    if (run.run) shown_now_ = std::min(shown_now_, run.run->steps_done());

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
  log_min_ = std::floor(std::log10(low));
  log_max_ = std::max(log_min_ + 1, std::ceil(std::log10(high)));
}

std::vector<float> TrainingView::settings_widths(const ViewContext& context) const {
  const UiStrings& t = text();
  const float field = std::round(110 * context.scale);
  return {labelled_width(field, t.training_gpus), labelled_width(field, t.training_dtype),
          labelled_width(field, t.training_iterations), labelled_width(std::round(field * 0.8f), t.training_seed)};
}

std::vector<float> TrainingView::player_widths() const {
  const UiStrings& t = text();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float play = std::max(ImGui::CalcTextSize(t.play).x, ImGui::CalcTextSize(t.pause).x) + style.FramePadding.x * 2;
  // The slider's text is centred in its frame and cut by it: the frame holds the longest one.
  const std::string longest = format(t.training_shown, iterations_, iterations_);
  const float slider = ImGui::CalcTextSize(longest.c_str()).x + style.FramePadding.x * 2 + style.GrabMinSize * 2;
  return {play, slider};
}

void TrainingView::draw_settings(const ViewContext& context, float right) {
  const UiStrings& t = text();
  const std::vector<float> widths = settings_widths(context);
  const float field = std::round(110 * context.scale);
  ControlFlow flow(right);
  int gpus = gpus_;
  flow.next(widths[0]);
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt(t.training_gpus, &gpus, 1, kMaxGpus)) configure(gpus, dtype_, order_, iterations_, strategies_, seed_);
  flow.next(widths[1]);
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo(t.training_dtype, std::string(dtype_name(dtype_)).c_str())) {
    for (DType option : {DType::f32, DType::bf16})
      if (ImGui::Selectable(std::string(dtype_name(option)).c_str(), option == dtype_))
        configure(gpus_, option, order_, iterations_, strategies_, seed_);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.training_dtype_hint);
  int iterations = iterations_;
  flow.next(widths[2]);
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt(t.training_iterations, &iterations, 10, 500))
    configure(gpus_, dtype_, order_, iterations, strategies_, seed_);
  int seed = static_cast<int>(seed_);
  flow.next(widths[3]);
  ImGui::SetNextItemWidth(std::round(field * 0.8f));
  if (ImGui::InputInt(t.training_seed, &seed, 1, 10))
    configure(gpus_, dtype_, order_, iterations_, strategies_, static_cast<std::uint64_t>(std::max(0, seed)));
}

void TrainingView::draw_player(float right) {
  const UiStrings& t = text();
  const std::vector<float> widths = player_widths();
  ControlFlow flow(right);
  flow.next(widths[0]);
  if (ImGui::Button(playing_ ? t.pause : t.play)) {
    if (playing_) pause();
    else play();
  }
  flow.next(widths[1]);
  float shown = static_cast<float>(shown_ < 0 ? iterations_ : shown_);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##training_shown", &shown, 0, static_cast<float>(iterations_),
                         format(t.training_shown, static_cast<int>(shown), iterations_).c_str()))
    set_shown_iterations(shown);
}

TrainingView::PlotTexts TrainingView::measure_plots(const Rect& body, double log_min, double log_max, int shown,
                                                    bool loss_captions, bool wide_legend) const {
  const UiStrings& t = text();
  const float line = ImGui::GetTextLineHeight();
  PlotTexts m;
  const int count = std::max(1, run_count());
  m.loss_gap = std::round(line * 1.2f);
  m.loss_w = (body.w - m.loss_gap * static_cast<float>(count - 1)) / static_cast<float>(count);

  // Loss titles: "DDP loss per GPU (log scale)" on one line where every one fits, else the
  // strategy on its own line and the rest wrapped under it (the same for all, so the plots align).
  m.title_one_line = true;
  for (int i = 0; i < run_count(); ++i)
    if (ImGui::CalcTextSize(strategy_label(t, strategy(i))).x + line * 0.5f + ImGui::CalcTextSize(t.training_loss_title).x >
        m.loss_w)
      m.title_one_line = false;
  std::string names;
  for (int i = 0; i < run_count(); ++i) names += strategy_label(t, strategy(i));
  m.title_pitch = line_pitch(names + t.training_loss_title);
  if (!m.title_one_line) m.loss_title = wrap_text(t.training_loss_title, m.loss_w);
  m.loss_title_h = m.title_pitch + m.loss_title.height();

  std::vector<AxisLabel> decades;
  for (double e = log_min; e <= log_max + 1e-9; e += 1) decades.push_back({0, format("1e%d", static_cast<int>(e))});
  m.loss_gutter = std::round(widest_label(decades) + line * 0.3f);

  // Under each loss plot: its mean loss on the left, the axis caption on the right of the same
  // row where both fit, else on a row of its own (or left out: the spread plot has the same axis).
  const float plot_w = m.loss_w - m.loss_gutter;
  float mean_w = 0;
  for (int i = 0; i < run_count(); ++i) {
    const auto& records = history(i);
    if (shown > 0 && shown <= static_cast<int>(records.size()))
      mean_w = std::max(mean_w, ImGui::CalcTextSize(format(t.training_mean_loss,
                                                           short_number(records[static_cast<std::size_t>(shown - 1)].mean_loss).c_str())
                                                        .c_str())
                                    .x);
  }
  m.caption = format(t.training_axis_iterations, iterations_);
  const float caption_w = ImGui::CalcTextSize(m.caption.c_str()).x;
  m.loss_caption = loss_captions && caption_w <= plot_w;
  m.caption_beside = m.loss_caption && mean_w + line + caption_w <= plot_w;
  m.row_pitch = line_pitch(m.caption + t.training_mean_loss);
  m.loss_bottom_h = line * 0.15f + m.row_pitch * (m.loss_caption && !m.caption_beside ? 2.0f : 1.0f);
  m.loss_min = m.loss_title_h + line * 0.6f + kMinPlotLines * line + m.loss_bottom_h;

  // The spread plot's title and hint, on one line where they fit.
  m.spread_hint_beside = ImGui::CalcTextSize(t.training_spread_title).x + line * 0.6f +
                             ImGui::CalcTextSize(t.training_spread_hint).x <= body.w;
  m.spread_title_pitch = line_pitch(std::string(t.training_spread_title) + t.training_spread_hint);
  if (!m.spread_hint_beside) m.spread_hint = wrap_text(t.training_spread_hint, body.w);
  m.spread_title_h = m.spread_title_pitch + m.spread_hint.height();

  // Its legend: each run's name and verdict, in a column on the right; a verdict starts on its
  // name's line and wraps under it.
  // Where the height is short, a wider column (up to half the width) wraps them onto fewer lines.
  m.legend_w = std::round(std::min(body.w * (wide_legend ? 0.5f : 0.38f), line * (wide_legend ? 40 : 26)));
  m.legend_h = 0;
  m.verdicts.clear();
  m.verdict_x.clear();
  for (int i = 0; i < run_count(); ++i) {
    const Run& run = runs_[static_cast<std::size_t>(i)];
    const auto& records = history(i);
    std::string verdict;
    if (!run.error.empty()) verdict = run.error;
    else if (shown == 0 || records.empty()) verdict = t.training_not_started;
    else {
      const TrainingStepRecord& last = records[std::min<std::size_t>(static_cast<std::size_t>(shown), records.size()) - 1];
      verdict = identical(last) ? format(t.training_identical, last.step)
                                : format(t.training_drifted, last.step, short_number(last.parameter_spread).c_str());
    }
    const float name_w = ImGui::CalcTextSize(strategy_label(t, run.strategy)).x + line * 0.5f;
    const float column = m.legend_w - line * 1.2f;
    m.verdict_x.push_back(name_w);
    m.verdicts.push_back(wrap_text(verdict, column - name_w, column));
    m.verdicts.back().pitch = std::max(m.verdicts.back().pitch, line_pitch(strategy_label(t, run.strategy)));
    m.legend_h += (i > 0 ? line * 0.5f : 0.0f) + m.verdicts.back().height();
  }
  m.spread_caption_h = line * 0.15f + line_pitch(m.caption);
  m.spread_min = m.spread_title_h + line * 0.6f + std::max(kMinPlotLines * line + m.spread_caption_h, m.legend_h);
  m.sections_gap = std::round(line * 0.8f);
  m.min_h = m.loss_min + m.sections_gap + m.spread_min;
  return m;
}

void TrainingView::draw(const Rect& area, const ViewContext& context) {
  language_ = context.language;
  const UiStrings& t = text();
  if (dirty_) rebuild();
  const ViewColours& colours = view_colours(context.theme);
  ImDrawList* dl = begin_view_window("##training_view", area, colours);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight();
  const float pad = std::round(line * 0.5f);
  const float left = ImGui::GetCursorScreenPos().x;
  const float right = area.right() - style.WindowPadding.x;
  const float top = ImGui::GetCursorScreenPos().y;
  const float row_h = ImGui::GetFrameHeight() + style.ItemSpacing.y;

  prepare();
  int shown = shown_now_;
  double log_min = log_min_, log_max = log_max_;

  // What the view needs from the top down, measured, and what it gives up when the height is
  // short, first to last: the settings row (presentation mode only: in the window they wrap
  // onto more rows, since a person sets them there), the spread plot's width (its legend
  // widens to wrap onto fewer lines), the explanation, the loss plots' axis captions. Then, if
  // the plots still lack their least height, a notice instead.
  const float width = right - left;
  const int settings_rows = flow_rows(settings_widths(context), width);
  const int player_rows = flow_rows(player_widths(), width);
  const std::string explained = format(t.training_explained, static_cast<long long>(MlpShape{}.parameter_count()), gpus_);
  const float explanation_h = wrap_text(explained, width).height() + style.ItemSpacing.y;
  const Rect body_guess{area.x + pad, 0, area.w - 2 * pad, 0};
  const float available = area.bottom() - pad - top - pad * 0.5f;
  bool settings = !context.presentation || settings_rows == 1;
  bool explanation = true;
  bool captions = true;
  bool wide_legend = false;
  auto needed = [&] {
    return (settings ? settings_rows * row_h : 0.0f) + player_rows * row_h + (explanation ? explanation_h : 0.0f) +
           measure_plots(body_guess, log_min, log_max, shown, captions, wide_legend).min_h;
  };
  if (context.presentation && settings && needed() > available) settings = false;
  if (needed() > available) wide_legend = true;
  if (needed() > available) explanation = false;
  if (needed() > available) captions = false;

  if (settings) draw_settings(context, right);
  draw_player(right);
  if (explanation) paragraph(explained, width, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  if (dirty_) {
    // A control changed the runs: draw the new ones from this frame on.
    prepare();
    shown = shown_now_;
    log_min = log_min_;
    log_max = log_max_;
  }

  const float body_top = ImGui::GetCursorScreenPos().y + pad * 0.5f;
  const Rect body{area.x + pad, body_top, area.w - 2 * pad, std::max(0.0f, area.bottom() - pad - body_top)};
  const PlotTexts m = measure_plots(body, log_min, log_max, shown, captions, wide_legend);
  if (m.min_h > body.h || run_count() == 0) {
    draw_centred_notice(dl, body, t.training_too_small);
    ImGui::End();
    return;
  }
  // The loss plots keep about half the height where there is room; the spread plot and its
  // legend take the rest.
  const float loss_h = std::round(std::clamp(body.h * 0.52f, m.loss_min, body.h - m.sections_gap - m.spread_min));
  TextBoard board(body);
  for (int i = 0; i < run_count(); ++i)
    draw_loss(dl, board, {body.x + static_cast<float>(i) * (m.loss_w + m.loss_gap), body.y, m.loss_w, loss_h},
              runs_[static_cast<std::size_t>(i)], log_min, log_max, shown, m, context);
  const float spread_y = body.y + loss_h + m.sections_gap;
  draw_spread(dl, board, {body.x, spread_y, body.w, body.bottom() - spread_y}, shown, m, context);
  ImGui::End();
}

void TrainingView::draw_loss(ImDrawList* dl, TextBoard& board, const Rect& area, const Run& run, double log_min,
                             double log_max, int shown, const PlotTexts& m, const ViewContext& context) {
  const UiStrings& t = text();
  const ViewColours& colours = view_colours(context.theme);
  const float line = ImGui::GetTextLineHeight();
  const ImU32 muted = to_imcol(colours.muted_text);
  const char* label = strategy_label(t, run.strategy);
  board.place(dl, ImVec2(area.x, area.y), to_imcol(strategy_colour(run.strategy, colours)), label);
  if (m.title_one_line)
    board.place(dl, ImVec2(area.x + ImGui::CalcTextSize(label).x + line * 0.5f, area.y), muted, t.training_loss_title);
  else
    board.place(dl, ImVec2(area.x, area.y + m.title_pitch), muted, m.loss_title);
  const float plot_top = area.y + m.loss_title_h + line * 0.6f;
  if (!run.error.empty()) {
    board.place(dl, ImVec2(area.x, plot_top), to_imcol(colours.warning), wrap_text(run.error, area.w));
    return;
  }
  const Rect plot{area.x + m.loss_gutter, plot_top, std::max(0.0f, area.w - m.loss_gutter),
                  std::max(0.0f, area.bottom() - m.loss_bottom_h - plot_top)};
  dl->AddRectFilled(to_imvec(plot.min()), to_imvec(plot.max()), to_imcol(colours.box_background, 0.5f));
  auto y_of = [&](double loss) {
    const double l = std::log10(std::max(loss, 1e-30));
    return plot.bottom() - static_cast<float>((l - log_min) / (log_max - log_min)) * plot.h;
  };
  const int iterations = iterations_;
  auto x_of = [&](int step) { return plot.x + plot.w * static_cast<float>(step) / std::max(1, iterations); };
  // A grid line every decade, a label on as many as fit (counted from the top, 1e0 down).
  const int decades = static_cast<int>(std::lround(log_max - log_min));
  const int stride = label_stride(plot.h / static_cast<float>(std::max(1, decades)), line * 1.15f);
  std::vector<AxisLabel> labels;
  for (int k = 0; k <= decades; ++k) {
    const double e = log_max - k;
    const float y = std::round(y_of(std::pow(10.0, e)));
    dl->AddLine(ImVec2(plot.x, y), ImVec2(plot.right(), y), to_imcol(colours.box_border, 0.45f));
    if (k % stride == 0) labels.push_back({y, format("1e%d", static_cast<int>(e))});
  }
  draw_y_labels(dl, board, plot, line * 0.25f, labels, muted);
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
  const float row = plot.bottom() + line * 0.15f;
  if (shown > 0 && shown <= static_cast<int>(records.size())) {
    const TrainingStepRecord& last = records[static_cast<std::size_t>(shown - 1)];
    board.place(dl, ImVec2(plot.x, row), to_imcol(colours.text),
                format(t.training_mean_loss, short_number(last.mean_loss).c_str()));
  }
  if (m.loss_caption)
    board.place(dl, ImVec2(std::round(plot.right() - ImGui::CalcTextSize(m.caption.c_str()).x), m.caption_beside ? row : row + m.row_pitch),
                muted, m.caption);
}

void TrainingView::draw_spread(ImDrawList* dl, TextBoard& board, const Rect& area, int shown, const PlotTexts& m,
                               const ViewContext& context) {
  const UiStrings& t = text();
  const ViewColours& colours = view_colours(context.theme);
  const float line = ImGui::GetTextLineHeight();
  const ImU32 muted = to_imcol(colours.muted_text);
  board.place(dl, ImVec2(area.x, area.y), to_imcol(colours.text), t.training_spread_title);
  if (m.spread_hint_beside)
    board.place(dl, ImVec2(area.x + ImGui::CalcTextSize(t.training_spread_title).x + line * 0.6f, area.y), muted,
                t.training_spread_hint);
  else
    board.place(dl, ImVec2(area.x, area.y + m.spread_title_pitch), muted, m.spread_hint);

  const float plot_top = area.y + m.spread_title_h + line * 0.6f;
  const float plot_h = std::max(0.0f, area.bottom() - m.spread_caption_h - plot_top);
  double top = 0;
  for (int i = 0; i < run_count(); ++i) {
    const auto& records = history(i);
    for (int k = 0; k < shown && k < static_cast<int>(records.size()); ++k)
      top = std::max(top, records[static_cast<std::size_t>(k)].parameter_spread);
  }
  // As many grid lines as the height holds with a label each.
  const LinearAxis axis = linear_axis(top, plot_h, line * 1.3f);
  std::vector<AxisLabel> labels;
  const int steps = static_cast<int>(std::lround(axis.top / axis.step));
  for (int k = 0; k <= steps; ++k) labels.push_back({0, short_number(axis.step * k)});
  const float gutter = std::round(widest_label(labels) + line * 0.4f);
  const float legend_x = area.right() - m.legend_w;
  const Rect plot{area.x + gutter, plot_top, std::max(0.0f, legend_x - line - area.x - gutter), plot_h};
  dl->AddRectFilled(to_imvec(plot.min()), to_imvec(plot.max()), to_imcol(colours.box_background, 0.5f));
  auto y_of = [&](double v) { return plot.bottom() - static_cast<float>(v / axis.top) * plot.h; };
  auto x_of = [&](int step) { return plot.x + plot.w * static_cast<float>(step) / std::max(1, iterations_); };
  const int stride = label_stride(plot.h / static_cast<float>(std::max(1, steps)), line * 1.15f);
  for (int k = 0; k <= steps; ++k) {
    const float y = std::round(y_of(axis.step * k));
    dl->AddLine(ImVec2(plot.x, y), ImVec2(plot.right(), y), to_imcol(colours.box_border, k == 0 ? 1.0f : 0.45f));
    labels[static_cast<std::size_t>(k)].at = y;
  }
  std::vector<AxisLabel> shown_labels;
  for (int k = 0; k <= steps; k += stride) shown_labels.push_back(labels[static_cast<std::size_t>(k)]);
  draw_y_labels(dl, board, plot, line * 0.3f, shown_labels, muted);
  board.place(dl, ImVec2(std::round(plot.right() - ImGui::CalcTextSize(m.caption.c_str()).x), plot.bottom() + line * 0.15f),
              muted, m.caption);

  float y = plot.y;
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

    dl->AddRectFilled(ImVec2(legend_x, y + line * 0.3f), ImVec2(legend_x + line * 0.9f, y + line * 0.7f), to_imcol(colour));
    const float name_x = legend_x + line * 1.2f;
    board.place(dl, ImVec2(name_x, y), to_imcol(colour), strategy_label(t, run.strategy));
    const WrappedText& verdict = m.verdicts[static_cast<std::size_t>(i)];
    for (std::size_t k = 0; k < verdict.lines.size(); ++k)
      board.place(dl, ImVec2(std::round(k == 0 ? name_x + m.verdict_x[static_cast<std::size_t>(i)] : name_x),
                             std::round(y + verdict.pitch * static_cast<float>(k))),
                  to_imcol(colours.text), verdict.lines[k]);
    y += verdict.height() + line * 0.5f;
  }
}

}  // namespace ringviz::gui
