#include "app/gui/views/memory_view.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/gui/views/centre_view_draw.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/font_loader.h"
#include "app/gui/text/strings.h"
#include "core/training/training_words.h"

namespace ringviz::gui {

namespace {

// The four parts of a bar, bottom to top: what stays for the whole iteration first, so the
// parts that come and go (gradients, buffers waiting for their collective) sit on top, where
// the peak's cause names them.
enum class Part { parameters, optimizer_states, gradients, transient };
constexpr Part kParts[] = {Part::parameters, Part::optimizer_states, Part::gradients, Part::transient};

std::int64_t bytes_of(const GpuMemory& memory, Part part) {
  switch (part) {
    case Part::parameters: return memory.parameters;
    case Part::optimizer_states: return memory.optimizer_states;
    case Part::gradients: return memory.gradients;
    case Part::transient: return memory.transient;
  }
  return 0;
}

// Whether each GPU holds only its own shard of `part` under `strategy` (then it is drawn in
// the GPU's ring colour). Transient buffers are whole buckets: never a shard.
bool owned_shard(Part part, Strategy strategy) {
  switch (part) {
    case Part::parameters: return shards(strategy, StateGroup::parameters);
    case Part::optimizer_states: return shards(strategy, StateGroup::optimizer_states);
    case Part::gradients: return shards(strategy, StateGroup::gradients);
    case Part::transient: return false;
  }
  return false;
}

// Replicated parts are neutral greys of different lightness, so colour always means "this
// GPU's own shard".
Rgb replicated_colour(Part part, ThemeKind theme) {
  const bool dark = theme == ThemeKind::dark;
  switch (part) {
    case Part::parameters: return dark ? Rgb{92, 99, 114} : Rgb{120, 127, 140};
    case Part::optimizer_states: return dark ? Rgb{132, 139, 153} : Rgb{160, 166, 178};
    case Part::gradients: return dark ? Rgb{178, 184, 196} : Rgb{196, 201, 211};
    case Part::transient: return dark ? Rgb{60, 64, 74} : Rgb{232, 234, 239};
  }
  return {};
}

// The shard of the same part takes the GPU's colour, darker or lighter by part so the three
// parts stay apart inside one bar.
Rgb owned_colour(Part part, Rgb rank) {
  switch (part) {
    case Part::parameters: return mix(rank, Rgb{0, 0, 0}, 0.38f);
    case Part::optimizer_states: return rank;
    case Part::gradients: return mix(rank, Rgb{255, 255, 255}, 0.42f);
    case Part::transient: return rank;
  }
  return rank;
}

const char* part_label(Part part) {
  const UiStrings& t = view_strings();
  switch (part) {
    case Part::parameters: return t.memory_parameters;
    case Part::optimizer_states: return t.memory_optimizer_states;
    case Part::gradients: return t.memory_gradients;
    case Part::transient: return t.memory_transient;
  }
  return "?";
}

Rgb step_colour(IterationStepKind kind, const ViewColours& colours) {
  switch (kind) {
    case IterationStepKind::forward: return {118, 128, 148};
    case IterationStepKind::backward: return {160, 124, 214};
    case IterationStepKind::gather_parameters: return mix(colours.phase_all_gather, Rgb{0, 0, 0}, 0.3f);
    case IterationStepKind::all_reduce: return mix(colours.phase_reduce_scatter, colours.phase_all_gather, 0.5f);
    case IterationStepKind::reduce_scatter: return colours.phase_reduce_scatter;
    case IterationStepKind::optimizer_step: return {96, 190, 116};
    case IterationStepKind::all_gather: return colours.phase_all_gather;
  }
  return colours.muted_text;
}

bool is_communication(IterationStepKind kind) {
  return kind == IterationStepKind::all_reduce || kind == IterationStepKind::reduce_scatter ||
         kind == IterationStepKind::all_gather || kind == IterationStepKind::gather_parameters;
}

// The default font has Latin-1 only: the formulas' Greek psi becomes P (explained in a hint).
std::string latin_formula(std::string formula) {
  const std::string psi = "\xCE\xA8";
  for (std::size_t at; (at = formula.find(psi)) != std::string::npos;) formula.replace(at, psi.size(), "P");
  return formula;
}

std::string gb(double bytes) { return format_bytes(bytes, ByteUnit::gb); }
std::string gb_number(double bytes) { return format_bytes(bytes, ByteUnit::gb, false); }

int optimizer_step_index(const IterationTimeline& timeline) {
  for (std::size_t s = 0; s < timeline.steps.size(); ++s)
    if (timeline.steps[s].kind == IterationStepKind::optimizer_step) return static_cast<int>(s);
  return 0;
}

}  // namespace

std::string peak_text(const IterationTimeline& timeline) {
  const UiStrings& t = view_strings();
  const MemoryPeak& peak = timeline.peak;
  std::string parts;
  for (auto [bytes, label] : {std::pair{peak.memory.gradients, t.memory_gradients},
                              std::pair{peak.memory.transient, t.memory_transient}}) {
    if (bytes <= 0) continue;
    const std::string part = format(t.memory_peak_part, label, gb(static_cast<double>(bytes)).c_str());
    parts = parts.empty() ? part : format(t.memory_peak_and, parts.c_str(), part.c_str());
  }
  const std::string on_top =
      parts.empty() ? std::string(t.memory_peak_resident_only) : format(t.memory_peak_on_top, parts.c_str());
  const std::string what =
      timeline_step_label(timeline, timeline.steps[static_cast<std::size_t>(peak.step)], ui_language());
  register_glyph_text(what);
  const std::string cause = format(t.memory_peak_cause, peak.step + 1, what.c_str(), on_top.c_str());
  return format(t.memory_peak, gb(static_cast<double>(peak.memory.total())).c_str(), peak.gpu, cause.c_str());
}

namespace {
const TransformerShape* g_startup_iteration_model = nullptr;
}  // namespace

void set_startup_iteration_model(const TransformerShape* preset) { g_startup_iteration_model = preset; }

MemoryView::MemoryView() {
  if (g_startup_iteration_model == nullptr) return;
  mode_ = MemoryMode::iteration;
  IterationQuery query = iteration_.query();
  query.model = *g_startup_iteration_model;
  iteration_.set_query(query);
}

void MemoryView::set_model(std::int64_t parameters, int gpus, std::vector<Strategy> strategies,
                           MemoryConvention convention, Order order) {
  parameters_ = std::clamp<std::int64_t>(parameters, 1, kMaxModelParameters);
  gpus_ = std::clamp(gpus, 1, kMaxGpus);
  iteration_.set_gpus(gpus_);
  if (!strategies.empty()) strategies_ = std::move(strategies);
  if (strategies_.size() > 4) strategies_.resize(4);
  convention_ = convention;
  order_ = order;
  dirty_ = true;
}

void MemoryView::set_bucket_bytes(std::int64_t bytes) {
  bucket_bytes_ = std::max<std::int64_t>(bytes, 1);
  dirty_ = true;
}

void MemoryView::set_step(int step) { step_ = step < 0 ? kAtOptimizerStep : step; }

const std::vector<MemoryView::Column>& MemoryView::columns() {
  if (dirty_) rebuild();
  return columns_;
}

int MemoryView::step_count() const {
  std::size_t steps = 0;
  for (const Column& column : columns_) steps = std::max(steps, column.timeline.steps.size());
  return static_cast<int>(steps);
}

int MemoryView::column_step(const Column& column) const {
  const int steps = static_cast<int>(column.timeline.steps.size());
  if (steps == 0) return 0;
  if (step_ == kAtOptimizerStep) return optimizer_step_index(column.timeline);
  return std::min(step_, steps - 1);
}

void MemoryView::rebuild() {
  dirty_ = false;
  columns_.clear();
  for (Strategy strategy : strategies_) {
    Column column;
    column.strategy = strategy;
    MemoryQuery query;
    query.parameters = parameters_;
    query.gpus = gpus_;
    query.strategy = strategy;
    query.convention = convention_;
    query.order = order_;
    try {
      column.estimate = estimate_memory(query);
      TimelineQuery timeline_query;
      timeline_query.memory = query;
      // A bucket smaller than one gradient is no bucket: round it up rather than refuse.
      timeline_query.bucket_bytes = std::max<std::int64_t>(bucket_bytes_, 4);
      column.timeline = build_iteration_timeline(timeline_query);
      column.peak_per_gpu.assign(static_cast<std::size_t>(gpus_), 0);
      for (int s = 0; s < static_cast<int>(column.timeline.steps.size()); ++s)
        for (int g = 0; g < gpus_; ++g) {
          auto& peak = column.peak_per_gpu[static_cast<std::size_t>(g)];
          peak = std::max(peak, memory_at(column.timeline, s, g).total());
        }
    } catch (const std::exception& error) {
      column.error = error.what();
    }
    columns_.push_back(std::move(column));
  }
}

void MemoryView::advance(double seconds) {
  iteration_.advance(seconds);
  if (!playing_ || seconds <= 0) return;
  if (dirty_) rebuild();
  const int steps = step_count();
  if (steps == 0) return;
  if (step_ == kAtOptimizerStep) step_ = 0;
  // One iteration takes about twelve seconds however many buckets it has, but a few buckets
  // still get at least two thirds of a second each.
  const double rate = std::max(1.5, steps / 12.0);
  step_clock_ += seconds * rate;
  const int whole = static_cast<int>(step_clock_);
  step_clock_ -= whole;
  step_ = std::min(steps - 1, step_ + whole);
  if (step_ == steps - 1) playing_ = false;
}

void MemoryView::draw_controls(const ViewContext& context) {
  const UiStrings& t = view_strings();
  const float field = std::round(110 * context.scale);

  // Row 1: the model, the GPUs and their capacity, the byte convention.
  int preset = -1;
  for (std::size_t i = 0; i < std::size(kModelPresets); ++i)
    if (kModelPresets[i].parameters == parameters_) preset = static_cast<int>(i);
  const std::string current = format_parameter_count(parameters_);
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo(t.memory_model, current.c_str())) {
    for (std::size_t i = 0; i < std::size(kModelPresets); ++i) {
      const std::string item = std::string(kModelPresets[i].name) + "  (" + std::string(kModelPresets[i].source) + ")";
      if (ImGui::Selectable(item.c_str(), preset == static_cast<int>(i)))
        set_model(kModelPresets[i].parameters, gpus_, strategies_, convention_, order_);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  int gpus = gpus_;
  ImGui::SetNextItemWidth(field);
  if (ImGui::SliderInt(t.memory_gpus, &gpus, 1, 16)) set_model(parameters_, gpus, strategies_, convention_, order_);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.memory_gpus_hint);
  ImGui::SameLine();
  const std::string capacity = format(t.memory_capacity_item, capacity_gb_);
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo(t.memory_capacity, capacity.c_str())) {
    for (double gb_option : kGpuCapacitiesGB)
      if (ImGui::Selectable(format(t.memory_capacity_item, gb_option).c_str(), gb_option == capacity_gb_))
        capacity_gb_ = gb_option;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo(t.memory_convention, std::string(convention_name(convention_)).c_str())) {
    for (MemoryConvention option : kAllConventions)
      if (ImGui::Selectable(std::string(convention_name(option)).c_str(), option == convention_))
        set_model(parameters_, gpus_, strategies_, option, order_);
    ImGui::EndCombo();
  }

  // Row 2: which ZeRO stage stands next to DDP, and the bucket size of the iteration.
  if (strategies_.size() == 2 && strategies_[0] == Strategy::ddp) {
    ImGui::TextUnformatted(t.memory_next_to_ddp);
    for (Strategy option : {Strategy::zero1, Strategy::zero2, Strategy::zero3}) {
      ImGui::SameLine();
      if (ImGui::RadioButton(std::string(strategy_title(option)).c_str(), strategies_[1] == option))
        set_model(parameters_, gpus_, {Strategy::ddp, option}, convention_, order_);
    }
    ImGui::SameLine();
  }
  int bucket_mb = static_cast<int>(std::max<std::int64_t>(1, bucket_bytes_ >> 20));
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt(t.memory_bucket, &bucket_mb, 5, 100)) {
    bucket_mb = std::clamp(bucket_mb, 1, 1 << 20);
    set_bucket_bytes(static_cast<std::int64_t>(bucket_mb) << 20);
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.memory_bucket_hint);
  hint_text(format(t.memory_convention_assumes, std::string(convention_assumptions(convention_, ui_language())).c_str()).c_str());

  // Row 3: stepping through the iteration.
  const int steps = step_count();
  if (ImGui::Button(t.memory_start)) { set_step(0); pause(); }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##memory_back", ImGuiDir_Left)) {
    const int at = step_ == kAtOptimizerStep && !columns_.empty() ? column_step(columns_.front()) : step_;
    set_step(std::max(0, at - 1));
    pause();
  }
  ImGui::SameLine();
  if (ImGui::Button(playing_ ? t.pause : t.play)) {
    if (playing_) pause();
    else {
      if (step_ != kAtOptimizerStep && step_ >= steps - 1) set_step(0);
      play();
    }
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##memory_forward", ImGuiDir_Right)) {
    const int at = step_ == kAtOptimizerStep && !columns_.empty() ? column_step(columns_.front()) : step_;
    set_step(std::min(std::max(0, steps - 1), at + 1));
    pause();
  }
  ImGui::SameLine();
  if (ImGui::Button(t.memory_model_states)) { set_step(kAtOptimizerStep); pause(); }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.memory_model_states_hint);
  ImGui::SameLine();
  int shown = step_ == kAtOptimizerStep && !columns_.empty() ? column_step(columns_.front()) : step_;
  shown = std::clamp(shown, 0, std::max(0, steps - 1));
  int one_based = shown + 1;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##memory_step", &one_based, 1, std::max(1, steps), format(t.memory_step, one_based, steps).c_str())) {
    set_step(one_based - 1);
    pause();
  }
}

void MemoryView::draw(const Rect& area, const ViewContext& context) {
  const UiStrings& t = view_strings();
  if (dirty_) rebuild();
  begin_panel("##memory_view", area, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar |
                                         ImGuiWindowFlags_NoScrollWithMouse);
  const ViewColours& colours = view_colours(context.theme);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(to_imvec(area.min()), to_imvec(area.max()), to_imcol(colours.view_background));
  if (ImGui::RadioButton(t.memory_mode_states, mode_ == MemoryMode::model_states)) mode_ = MemoryMode::model_states;
  ImGui::SameLine();
  if (ImGui::RadioButton(t.memory_mode_iteration, mode_ == MemoryMode::iteration)) mode_ = MemoryMode::iteration;
  if (mode_ == MemoryMode::iteration) {
    iteration_.draw(area, context);
    ImGui::End();
    return;
  }
  draw_controls(context);
  if (dirty_) rebuild();  // a control may have changed the model

  const float line = ImGui::GetTextLineHeight();
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  const float pad = std::round(line * 0.5f);
  const float legend_h = line * 1.6f;
  const Rect plots{area.x + pad, cursor.y + pad * 0.5f, area.w - 2 * pad,
                   std::max(0.0f, area.bottom() - cursor.y - pad - legend_h)};

  // One scale for every column, kept for the whole iteration so the bars visibly grow and
  // shrink, and tall enough for the capacity line.
  double top = capacity_gb_ * 1e9;
  for (const Column& column : columns_)
    for (std::int64_t peak : column.peak_per_gpu) top = std::max(top, static_cast<double>(peak));
  const double y_max = nice_ceiling(top * 1.06 / 1e9, 6) * 1e9;

  const int count = static_cast<int>(columns_.size());
  const float gap = std::round(line * 1.5f);
  const float width = count > 0 ? (plots.w - gap * (count - 1)) / count : plots.w;
  for (int i = 0; i < count; ++i) {
    ImGui::PushID(i);
    draw_column(dl, {plots.x + i * (width + gap), plots.y, width, plots.h}, columns_[static_cast<std::size_t>(i)],
                y_max, context);
    ImGui::PopID();
  }

  // Legend: grey = replicated on every GPU, a GPU's colour = the shard it owns alone.
  float x = plots.x;
  const float y = area.bottom() - legend_h + line * 0.3f;
  const ImU32 ink = to_imcol(colours.text);
  for (Part part : kParts) {
    const bool transient = part == Part::transient;
    x += legend_swatch(dl, ImVec2(x, y), line, to_imcol(replicated_colour(part, context.theme)), ink,
                       part_label(part), transient, to_imcol(colours.warning)) +
         line;
  }
  x += line * 0.5f;
  for (int g = 0; g < std::min(gpus_, 4); ++g)
    dl->AddRectFilled(ImVec2(x + g * line * 0.6f, y + 1), ImVec2(x + (g + 1) * line * 0.6f, y + line - 1),
                      to_imcol(rank_colour(g, context.palette)));
  x += std::min(gpus_, 4) * line * 0.6f + line * 0.35f;
  dl->AddText(ImVec2(x, y), to_imcol(colours.muted_text), t.memory_legend_owned);
  ImGui::End();
}

void MemoryView::draw_column(ImDrawList* dl, const Rect& area, const Column& column, double y_max,
                             const ViewContext& context) {
  const UiStrings& t = view_strings();
  const ViewColours& colours = view_colours(context.theme);
  const float line = ImGui::GetTextLineHeight();
  const float s = context.scale;
  const ImU32 text = to_imcol(colours.text);
  const ImU32 muted = to_imcol(colours.muted_text);
  const double capacity = capacity_gb_ * 1e9;

  // Title: the strategy, its closed form and what a GPU holds at rest, and whether it fits.
  const std::string title = std::string(strategy_title(column.strategy));
  dl->AddText(ImVec2(area.x, area.y), text, title.c_str());
  if (!column.error.empty()) {
    dl->AddText(nullptr, 0, ImVec2(area.x, area.y + line * 1.3f), to_imcol(colours.warning), column.error.c_str(),
                nullptr, area.w);
    return;
  }
  const double at_rest = static_cast<double>(column.estimate.largest().total());
  const std::string formula = format(t.memory_column_formula, latin_formula(column.estimate.formula).c_str(),
                                     gb(at_rest).c_str());
  dl->AddText(ImVec2(area.x + ImGui::CalcTextSize(title.c_str()).x + line * 0.6f, area.y), muted, formula.c_str());
  const bool fits = at_rest <= capacity;
  const std::string verdict = format(fits ? t.memory_fits : t.memory_does_not_fit, gb(capacity).c_str());
  dl->AddText(ImVec2(area.x, area.y + line * 1.15f), fits ? to_imcol(Rgb{96, 190, 116}) : to_imcol(colours.warning),
              verdict.c_str());

  // Below the plot: the step strip, what this step does, and the peak.
  const float bottom_h = line * 10.6f;
  const float axis_w = ImGui::CalcTextSize("0000").x + line * 0.4f;
  const Rect plot{area.x + axis_w, area.y + line * 3.6f, std::max(0.0f, area.w - axis_w),
                  std::max(line * 3, area.h - line * 3.6f - bottom_h)};

  // Axis and grid, in GB.
  const double step_gb = nice_step(y_max / 1e9, 6);
  auto y_of = [&](double bytes) {
    return plot.bottom() - static_cast<float>(bytes / y_max) * plot.h;
  };
  for (double v = 0; v <= y_max / 1e9 + 1e-9; v += step_gb) {
    const float y = std::round(y_of(v * 1e9));
    dl->AddLine(ImVec2(plot.x, y), ImVec2(plot.right(), y), to_imcol(colours.box_border, v == 0 ? 1.0f : 0.35f));
    const std::string label = format("%g", v);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    dl->AddText(ImVec2(plot.x - size.x - line * 0.3f, y - size.y * 0.5f), muted, label.c_str());
  }
  dl->AddText(ImVec2(plot.x - axis_w, plot.y - line * 1.4f), muted, t.memory_axis);

  // The bars of this step.
  const int step = column_step(column);
  const int n = gpus_;
  const float slot_w = plot.w / static_cast<float>(n);
  const float bar_w = std::max(1.0f, std::min(slot_w * 0.72f, line * 6));
  const float number_w = ImGui::CalcTextSize("000.0").x;
  const bool each_number = slot_w >= number_w + 2;
  std::int64_t largest_total = 0;
  int largest_gpu = 0;
  for (int g = 0; g < n; ++g) {
    const GpuMemory memory = memory_at(column.timeline, step, g);
    const float x0 = std::round(plot.x + slot_w * (g + 0.5f) - bar_w * 0.5f);
    const Rgb rank = rank_colour(g, context.palette);
    double below = 0;
    for (Part part : kParts) {
      const double bytes = static_cast<double>(bytes_of(memory, part));
      if (bytes <= 0) continue;
      const float y1 = y_of(below), y0 = y_of(below + bytes);
      below += bytes;
      const Rect segment{x0, y0, bar_w, std::max(1.0f, y1 - y0)};
      const bool owned = owned_shard(part, column.strategy);
      const Rgb fill = owned ? owned_colour(part, rank) : replicated_colour(part, context.theme);
      dl->AddRectFilled(to_imvec(segment.min()), to_imvec(segment.max()), to_imcol(fill));
      if (part == Part::transient) hatch_rect(dl, segment, to_imcol(colours.warning), std::max(3.0f, 5 * s), 1.5f);
      // A hairline between parts, in the background colour, keeps neighbours apart.
      if (segment.h > 3)
        dl->AddLine(ImVec2(segment.x, segment.bottom() - 0.5f), ImVec2(segment.right(), segment.bottom() - 0.5f),
                    to_imcol(colours.view_background));
      const std::string value = gb_number(bytes);
      const ImVec2 size = ImGui::CalcTextSize(value.c_str());
      if (segment.h >= line + 2 && size.x + 4 <= bar_w && part != Part::transient)
        text_centred(dl, segment.centre().x, segment.centre().y - size.y * 0.5f, ink_on(fill), value.c_str());
    }
    const std::int64_t total = memory.total();
    if (total > largest_total) {
      largest_total = total;
      largest_gpu = g;
    }
    const float top = y_of(static_cast<double>(total));
    if (each_number) {
      const std::string value = gb_number(static_cast<double>(total));
      text_centred(dl, x0 + bar_w * 0.5f, top - line * 1.1f,
                   static_cast<double>(total) > capacity ? to_imcol(colours.warning) : text, value.c_str());
    }
    // This GPU's peak over the iteration: a short tick, so a class sees how far the bar will go.
    const float peak_y = std::round(y_of(static_cast<double>(column.peak_per_gpu[static_cast<std::size_t>(g)])));
    dashed_line(dl, ImVec2(x0 - 2, peak_y), ImVec2(x0 + bar_w + 2, peak_y), to_imcol(colours.text, 0.75f),
                std::max(1.0f, s), 4 * s, 3 * s);
    // GPU names under the bars when they fit.
    const std::string name = format(view_strings().gpu_short, g);
    if (ImGui::CalcTextSize(name.c_str()).x <= slot_w)
      text_centred(dl, x0 + bar_w * 0.5f, plot.bottom() + line * 0.15f, to_imcol(rank), name.c_str());
  }
  if (!each_number) {
    // Too many bars for a number each: the largest one is labelled above the group.
    const std::string value = format(t.memory_largest_bar, largest_gpu, gb(static_cast<double>(largest_total)).c_str());
    dl->AddText(ImVec2(plot.x + line * 0.3f, plot.y), text, value.c_str());
  }

  // The capacity of the chosen GPU, across the plot.
  const float cap_y = std::round(y_of(capacity));
  dashed_line(dl, ImVec2(plot.x, cap_y), ImVec2(plot.right(), cap_y), to_imcol(colours.warning), 2 * s, 9 * s, 5 * s);
  const std::string cap_label = format(t.memory_capacity_line, gb(capacity).c_str());
  const ImVec2 cap_size = ImGui::CalcTextSize(cap_label.c_str());
  dl->AddRectFilled(ImVec2(plot.right() - cap_size.x - line * 0.6f, cap_y - line * 1.15f),
                    ImVec2(plot.right() - line * 0.1f, cap_y - 2), to_imcol(colours.view_background, 0.85f));
  dl->AddText(ImVec2(plot.right() - cap_size.x - line * 0.35f, cap_y - line * 1.1f), to_imcol(colours.warning),
              cap_label.c_str());

  // The step strip: every step of the iteration, compute above, communication below.
  const int steps = static_cast<int>(column.timeline.steps.size());
  const Rect strip{plot.x, plot.bottom() + line * 1.35f, plot.w, std::round(line * 0.9f)};
  dl->AddRectFilled(to_imvec(strip.min()), to_imvec(strip.max()), to_imcol(colours.box_background));
  const int pixels = std::max(1, static_cast<int>(strip.w));
  for (int p = 0; p < pixels; ++p) {
    const int first = static_cast<int>(static_cast<std::int64_t>(p) * steps / pixels);
    const int last = std::max(first + 1, static_cast<int>(static_cast<std::int64_t>(p + 1) * steps / pixels));
    int compute = -1, communication = -1;
    for (int k = first; k < last && k < steps; ++k) {
      const IterationStepKind kind = column.timeline.steps[static_cast<std::size_t>(k)].kind;
      (is_communication(kind) ? communication : compute) = static_cast<int>(kind);
    }
    const float x = strip.x + p;
    if (compute >= 0)
      dl->AddRectFilled(ImVec2(x, strip.y), ImVec2(x + 1, strip.y + strip.h * 0.5f),
                        to_imcol(step_colour(static_cast<IterationStepKind>(compute), colours)));
    if (communication >= 0)
      dl->AddRectFilled(ImVec2(x, strip.y + strip.h * 0.5f), ImVec2(x + 1, strip.bottom()),
                        to_imcol(step_colour(static_cast<IterationStepKind>(communication), colours)));
  }
  auto x_of_step = [&](int k) { return strip.x + (k + 0.5f) * strip.w / std::max(1, steps); };
  const float peak_x = std::round(x_of_step(column.timeline.peak.step));
  dl->AddTriangleFilled(ImVec2(peak_x, strip.bottom() + 1), ImVec2(peak_x - line * 0.35f, strip.bottom() + line * 0.5f),
                        ImVec2(peak_x + line * 0.35f, strip.bottom() + line * 0.5f), to_imcol(colours.warning));
  const float cursor_x = std::round(x_of_step(step));
  dl->AddRectFilled(ImVec2(cursor_x - std::max(1.0f, s), strip.y - 3), ImVec2(cursor_x + std::max(1.0f, s), strip.bottom() + 3),
                    text);
  // Click or drag on the strip to move through the iteration.
  ImGui::SetCursorScreenPos(to_imvec(strip.min()));
  ImGui::InvisibleButton("##strip", ImVec2(std::max(1.0f, strip.w), strip.h));
  if (ImGui::IsItemActive() && steps > 0) {
    const float fraction = (ImGui::GetIO().MousePos.x - strip.x) / std::max(1.0f, strip.w);
    set_step(std::clamp(static_cast<int>(fraction * steps), 0, steps - 1));
    pause();
  }

  // What this step does, and the collective it runs (ready to open in the ring view).
  const IterationStep& current = column.timeline.steps[static_cast<std::size_t>(step)];
  float y = strip.bottom() + line * 0.6f;
  const std::string label = format(t.memory_step_label, step + 1, timeline_step_label(column.timeline, current, ui_language()).c_str());
  register_glyph_text(label);  // worded by core from parts: the next atlas covers what it drew
  dl->AddText(nullptr, 0, ImVec2(area.x, y), to_imcol(step_colour(current.kind, colours)), label.c_str(), nullptr, area.w);
  y += line * 2.1f;
  if (current.collective && context.open_in_ring) {
    ImGui::SetCursorScreenPos(ImVec2(area.x, y));
    if (ImGui::SmallButton(t.memory_open_in_ring)) {
      Config config = current.collective->ring_view(gpus_, order_);
      // The engine would happily run millions of elements, but nobody can read them: the
      // same rounds on a couple of elements per slot tell the same story.
      const std::int64_t real = config.count;
      config.count = config.op == Op::allgather ? std::min<std::int64_t>(real, 2)
                                                : std::min<std::int64_t>(real, 2 * static_cast<std::int64_t>(gpus_));
      config.init = InitPattern{};
      context.open_in_ring(config, format(t.memory_opened_notice, current.collective->purpose.c_str(),
                                          static_cast<long long>(real), static_cast<long long>(config.count)));
    }
    ImGui::SameLine();
    ImGui::TextDisabled(t.memory_collective_size, static_cast<long long>(current.collective->elements),
                        std::string(dtype_name(current.collective->dtype)).c_str());
  }
  y += line * 1.4f;
  // The peak over the whole iteration and its cause.
  dl->AddText(nullptr, 0, ImVec2(area.x, y), to_imcol(colours.warning), peak_text(column.timeline).c_str(), nullptr,
              area.w);
}

}  // namespace ringviz::gui
