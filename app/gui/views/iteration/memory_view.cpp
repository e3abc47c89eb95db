#include "app/gui/views/iteration/memory_view.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/caption_wrap.h"
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

const char* part_label(const UiStrings& t, Part part) {
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

std::string peak_text(const IterationTimeline& timeline, Language language) {
  const UiStrings& t = ui_strings_for(language);
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
      timeline_step_label(timeline, timeline.steps[static_cast<std::size_t>(peak.step)], language);
  register_glyph_text(what);
  const std::string cause = format(t.memory_peak_cause, peak.step + 1, what.c_str(), on_top.c_str());
  return format(t.memory_peak, gb(static_cast<double>(peak.memory.total())).c_str(), peak.gpu, cause.c_str());
}

void MemoryView::show_iteration_of(const TransformerShape& model) {
  mode_ = MemoryMode::iteration;
  IterationQuery query = iteration_.query();
  query.model = model;
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
  follow_ = -1;
  dirty_ = true;
}

void MemoryView::set_bucket_bytes(std::int64_t bytes) {
  bucket_bytes_ = std::max<std::int64_t>(bytes, 1);
  dirty_ = true;
}

void MemoryView::set_step(int step) {
  if (dirty_) rebuild();
  if (step < 0 || columns_.empty()) {
    rest();
    return;
  }
  const int longest = longest_column();
  const StepBeats& beats = columns_[static_cast<std::size_t>(longest)].beats;
  if (beats.first.empty()) return;
  at_rest_ = false;
  clock_.seek(beats.first[static_cast<std::size_t>(std::min<std::size_t>(static_cast<std::size_t>(step), beats.first.size() - 1))]);
}

int MemoryView::longest_column() const {
  int longest = 0;
  for (std::size_t c = 0; c < columns_.size(); ++c)
    if (columns_[c].timeline.steps.size() > columns_[static_cast<std::size_t>(longest)].timeline.steps.size())
      longest = static_cast<int>(c);
  return longest;
}

int MemoryView::step() const {
  if (columns_.empty() || resting()) return kAtOptimizerStep;
  return column_moment(columns_[static_cast<std::size_t>(longest_column())]).step;
}

void MemoryView::rest() {
  if (dirty_) rebuild();
  at_rest_ = true;
  led_ = false;
  clock_.pause();
  seat_at_rest();
}

void MemoryView::seat_at_rest() {
  // The clock waits at the optimizer step of the longest column; any move leaves the rest.
  if (!columns_.empty()) {
    const Column& longest = columns_[static_cast<std::size_t>(longest_column())];
    if (!longest.beats.first.empty())
      clock_.seek(longest.beats.first[static_cast<std::size_t>(optimizer_step_index(longest.timeline))]);
  }
  rest_position_ = clock_.position();
}

void MemoryView::settle() {
  if (at_rest_ && !resting()) at_rest_ = false;
}

bool MemoryView::resting() const {
  return at_rest_ && !clock_.animating() && clock_.position() == rest_position_;
}

void MemoryView::play() {
  transport();
  if (resting() || clock_.position() >= clock_.round_count()) clock_.seek(0);
  at_rest_ = false;
  clock_.play();
}

Playback& MemoryView::transport() {
  settle();
  if (dirty_) rebuild();
  return clock_;
}

const std::vector<MemoryView::Column>& MemoryView::columns() {
  if (dirty_) rebuild();
  return columns_;
}

int MemoryView::step_count() const {
  std::size_t steps = 0;
  for (const Column& column : columns_) steps = std::max(steps, column.timeline.steps.size());
  return static_cast<int>(steps);
}

StepMoment MemoryView::column_moment(const Column& column) const {
  if (column.timeline.steps.empty()) return {};
  if (resting()) return {optimizer_step_index(column.timeline), 0.0};
  return step_moment(column.beats, clock_.position());
}

int MemoryView::followed_column() const {
  // The ring follows the column that shards (the one the lesson is about), else the first.
  for (std::size_t c = columns_.size(); c-- > 0;)
    if (columns_[c].error.empty() && columns_[c].strategy != Strategy::ddp) return static_cast<int>(c);
  return 0;
}

void MemoryView::rebuild() {
  settle();
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
      column.beats = step_beats(column.timeline);
      column.sent = SentBytes(column.timeline, column.beats);
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
  // One clock for every column: as long as the longest, each beat lasting a ring round at 1x
  // until the iteration would take more than half a minute, then shorter.
  int beats = 0;
  for (const Column& column : columns_) beats = std::max(beats, column.beats.total);
  clock_.set_round_count(beats);
  const double seconds = beats > 0 ? std::min(kSecondsPerRound, 30.0 / beats) : kSecondsPerRound;
  clock_.set_round_seconds(std::vector<double>(static_cast<std::size_t>(beats), seconds));
  if (at_rest_) seat_at_rest();
}

void MemoryView::advance(double seconds) {
  settle();
  iteration_.advance(seconds);
  if (seconds <= 0) return;
  if (dirty_) rebuild();
  clock_.advance(seconds);
}

bool MemoryView::follow_ring(Op op, double rounds) {
  if (dirty_) rebuild();
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const Column& column = columns_[c];
    for (std::size_t s = column.timeline.steps.size(); s-- > 0;) {
      const IterationStep& step = column.timeline.steps[s];
      if (!step.collective || step.collective->op != op) continue;
      at_rest_ = false;
      follow_ = static_cast<int>(c);
      clock_.seek(column.beats.first[s] + std::clamp(rounds, 0.0, static_cast<double>(column.beats.length[s])));
      led_ = true;
      led_position_ = clock_.position();
      return true;
    }
  }
  return false;
}

std::optional<MemoryView::RingCall> MemoryView::ring_call() {
  if (dirty_) rebuild();
  if (resting() || columns_.empty()) return std::nullopt;
  const Column& column = columns_[static_cast<std::size_t>(follow_ >= 0 ? follow_ : followed_column())];
  if (!column.error.empty() || column.timeline.steps.empty()) return std::nullopt;
  const StepMoment moment = column_moment(column);
  const IterationStep& step = column.timeline.steps[static_cast<std::size_t>(moment.step)];
  if (!step.collective) return std::nullopt;
  RingCall call;
  call.config = readable_ring_config(*step.collective, gpus_, order_);
  call.position = moment.into;
  call.purpose = step.collective->purpose;
  return call;
}

std::vector<Rgb> MemoryView::beat_colours(const ViewColours& colours) {
  if (dirty_) rebuild();
  std::vector<Rgb> spans;
  if (columns_.empty()) return spans;
  const Column& column = columns_[static_cast<std::size_t>(follow_ >= 0 ? follow_ : followed_column())];
  for (std::size_t s = 0; s < column.timeline.steps.size(); ++s)
    spans.insert(spans.end(), static_cast<std::size_t>(column.beats.length[s]),
                 step_colour(column.timeline.steps[s].kind, colours));
  return spans;
}

Config readable_ring_config(const CollectiveCall& call, int gpus, Order order) {
  Config config = call.ring_view(gpus, order);
  // The engine would happily run millions of elements, but nobody can read them: the same
  // rounds on a couple of elements per slot tell the same story.
  config.count = config.op == Op::allgather ? std::min<std::int64_t>(config.count, 2)
                                            : std::min<std::int64_t>(config.count, 2 * static_cast<std::int64_t>(gpus));
  config.init = InitPattern{};
  return config;
}

void MemoryView::draw_controls(const ViewContext& context) {
  const UiStrings& t = text();
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
  hint_text(format(t.memory_convention_assumes, std::string(convention_assumptions(convention_, language_)).c_str()).c_str());

  // Row 3: the clock's transport (Space, the arrow keys and the controls bar drive it too).
  if (ImGui::Button(t.memory_start)) {
    set_step(0);
    pause();
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##memory_back", ImGuiDir_Left)) {
    at_rest_ = false;
    clock_.step_back();
  }
  ImGui::SameLine();
  if (ImGui::Button(clock_.playing() ? t.pause : t.play)) {
    if (clock_.playing()) pause();
    else play();
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##memory_forward", ImGuiDir_Right)) {
    at_rest_ = false;
    clock_.step_forward();
  }
  ImGui::SameLine();
  if (ImGui::Button(t.memory_model_states)) rest();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.memory_model_states_hint);
  ImGui::SameLine();
  const int steps = step_count();
  const int shown = std::clamp(resting() && !columns_.empty() ? column_moment(columns_[static_cast<std::size_t>(longest_column())]).step
                                                             : step(),
                               0, std::max(0, steps - 1));
  int one_based = shown + 1;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##memory_step", &one_based, 1, std::max(1, steps), format(t.memory_step, one_based, steps).c_str())) {
    set_step(one_based - 1);
    pause();
  }
}

namespace {

// Text placed in rows that never overlap: each call takes the next free line of a column.
struct TextRows {
  ImDrawList* dl;
  float x, y, width, line;
  // Draws `text` wrapped to the width when it needs at most `max_lines` lines; otherwise
  // nothing (a sentence cut in half says something false). Returns whether it was drawn.
  // Lines break as the captions' do: a number keeps its unit ("112 GB") on one line.
  bool add(const std::string& text, ImU32 colour, int max_lines = 1) {
    if (text.empty()) return false;
    const std::vector<std::string> lines = wrapped(text);
    if (lines.size() > static_cast<std::size_t>(max_lines)) return false;
    for (const std::string& one : lines) {
      dl->AddText(ImVec2(x, y), colour, one.c_str());
      y += ImGui::GetTextLineHeight();
    }
    y += line * 0.25f;
    return true;
  }
  // The height `text` would take at this width (0 when it would not be drawn).
  float height(const std::string& text, int max_lines = 1) const {
    const std::size_t lines = wrapped(text).size();
    return lines > static_cast<std::size_t>(max_lines) ? 0.0f
                                                       : static_cast<float>(lines) * ImGui::GetTextLineHeight() + line * 0.25f;
  }
  std::vector<std::string> wrapped(const std::string& text) const {
    return wrap_caption(*ImGui::GetFont(), ImGui::GetFontSize(), text, width);
  }
};

std::string percent(double part, double whole) {
  return whole > 0 ? format("%.0f%%", 100.0 * part / whole) : std::string("-");
}

}  // namespace

std::string MemoryView::headline() {
  // The point of the comparison in one sentence, from the model's numbers: the sharding
  // column's memory against the first column's, and their traffic.
  if (columns_.size() < 2) return {};
  const Column& base = columns_.front();
  const Column& other = columns_.back();
  if (!base.error.empty() || !other.error.empty()) return {};
  const UiStrings& t = text();
  const double base_bytes = static_cast<double>(base.estimate.largest().total());
  const double other_bytes = static_cast<double>(other.estimate.largest().total());
  const std::int64_t base_sent = base.sent.per_iteration(0);
  const std::int64_t other_sent = other.sent.per_iteration(0);
  const std::string other_name(strategy_title(other.strategy)), base_name(strategy_title(base.strategy));
  if (base_sent == other_sent)
    return format(t.memory_same_traffic, other_name.c_str(), gb(other_bytes).c_str(), percent(other_bytes, base_bytes).c_str(),
                  base_name.c_str(), gb(base_bytes).c_str(), gb(static_cast<double>(other_sent)).c_str());
  return format(t.memory_more_traffic, other_name.c_str(), gb(other_bytes).c_str(), percent(other_bytes, base_bytes).c_str(),
                base_name.c_str(), gb(base_bytes).c_str(), gb(static_cast<double>(other_sent)).c_str(),
                gb(static_cast<double>(base_sent)).c_str());
}

std::string MemoryView::ring_words() {
  const UiStrings& t = text();
  if (resting() || columns_.empty()) return audience_ ? std::string() : std::string(t.memory_ring_at_rest);
  const Column& column = columns_[static_cast<std::size_t>(follow_ >= 0 ? follow_ : followed_column())];
  const std::string name(strategy_title(column.strategy));
  if (const std::optional<RingCall> call = ring_call()) return format(t.memory_ring_shows, call->purpose.c_str(), name.c_str());
  return format(t.memory_ring_compute, name.c_str());
}

void MemoryView::draw(const Rect& area, const ViewContext& context) {
  language_ = context.language;
  const UiStrings& t = text();
  settle();
  if (dirty_) rebuild();
  begin_panel("##memory_view", area, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar |
                                         ImGuiWindowFlags_NoScrollWithMouse);
  const ViewColours& colours = view_colours(context.theme);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(to_imvec(area.min()), to_imvec(area.max()), to_imcol(colours.view_background));
  const bool measured = context.job != nullptr && !context.job->memory.empty();
  if (mode_ == MemoryMode::measured && !measured) mode_ = MemoryMode::model_states;
  if (!audience_) {
    if (ImGui::RadioButton(t.memory_mode_states, mode_ == MemoryMode::model_states)) mode_ = MemoryMode::model_states;
    ImGui::SameLine();
    if (ImGui::RadioButton(t.memory_mode_iteration, mode_ == MemoryMode::iteration)) mode_ = MemoryMode::iteration;
    if (measured) {
      ImGui::SameLine();
      if (ImGui::RadioButton(t.memory_mode_measured, mode_ == MemoryMode::measured)) mode_ = MemoryMode::measured;
    }
  }
  if (mode_ == MemoryMode::measured) {
    measured_.draw(area, context, *context.job, audience_);
    ImGui::End();
    return;
  }
  if (mode_ == MemoryMode::iteration) {
    iteration_.draw(area, context);
    ImGui::End();
    return;
  }
  if (!audience_) draw_controls(context);
  if (dirty_) rebuild();  // a control may have changed the model

  const float line = ImGui::GetTextLineHeight();
  const float pad = std::round(line * 0.5f);
  const float top_y = audience_ ? area.y + pad : ImGui::GetCursorScreenPos().y;
  TextRows head{dl, area.x + pad, top_y, area.w - 2 * pad, line};
  head.add(headline(), to_imcol(colours.text), 2);

  // The legend, flowed over as many rows as the width needs, under the columns: it never
  // covers data because the columns end above it.
  struct LegendItem {
    Rgb colour;
    std::string label;
    bool hatched;
  };
  std::vector<LegendItem> legend;
  for (Part part : kParts) legend.push_back({replicated_colour(part, context.theme), part_label(t, part), part == Part::transient});
  const float swatch_gap = line;
  std::vector<float> widths;
  for (const LegendItem& item : legend) widths.push_back(line * 1.4f + ImGui::CalcTextSize(item.label.c_str()).x);
  const float owned_w = std::min(gpus_, 4) * line * 0.6f + line * 0.35f + ImGui::CalcTextSize(t.memory_legend_owned).x;
  widths.push_back(owned_w);
  int legend_rows = 1;
  float row_x = 0;
  const float legend_w = area.w - 2 * pad;
  for (float w : widths) {
    if (row_x > 0 && row_x + w > legend_w) {
      ++legend_rows;
      row_x = 0;
    }
    row_x += w + swatch_gap;
  }
  const float legend_h = legend_rows * line * 1.3f;
  const Rect plots{area.x + pad, head.y + pad * 0.5f, area.w - 2 * pad,
                   std::max(0.0f, area.bottom() - head.y - pad - legend_h)};

  // One scale for every column, kept for the whole iteration so the bars visibly grow and
  // shrink, and tall enough for the capacity line.
  double top = capacity_gb_ * 1e9;
  for (const Column& column : columns_)
    for (std::int64_t peak : column.peak_per_gpu) top = std::max(top, static_cast<double>(peak));
  const double y_max = nice_ceiling(top * 1.06 / 1e9, 6) * 1e9;

  const int count = static_cast<int>(columns_.size());
  const float gap = std::round(line * 1.5f);
  const float width = count > 0 ? (plots.w - gap * (count - 1)) / count : plots.w;
  bool drawn = true;
  for (int i = 0; i < count; ++i) {
    ImGui::PushID(i);
    drawn = draw_column(dl, {plots.x + i * (width + gap), plots.y, width, plots.h}, columns_[static_cast<std::size_t>(i)],
                        y_max, context) && drawn;
    ImGui::PopID();
  }
  if (!drawn) {
    // Too little room for a chart that can be read: say so rather than pile labels up.
    dl->AddRectFilled(to_imvec(plots.min()), to_imvec(plots.max()), to_imcol(colours.view_background));
    TextRows notice{dl, plots.x, plots.y, plots.w, line};
    notice.add(t.memory_view_too_small, to_imcol(colours.warning), 3);
  }

  float x = plots.x;
  float y = area.bottom() - legend_h + line * 0.15f;
  const ImU32 ink = to_imcol(colours.text);
  for (std::size_t i = 0; i < legend.size(); ++i) {
    if (x > plots.x && x + widths[i] > plots.x + legend_w) {
      x = plots.x;
      y += line * 1.3f;
    }
    legend_swatch(dl, ImVec2(x, y), line, to_imcol(legend[i].colour), ink, legend[i].label.c_str(), legend[i].hatched,
                  to_imcol(colours.warning));
    x += widths[i] + swatch_gap;
  }
  if (x > plots.x && x + owned_w > plots.x + legend_w) {
    x = plots.x;
    y += line * 1.3f;
  }
  for (int g = 0; g < std::min(gpus_, 4); ++g)
    dl->AddRectFilled(ImVec2(x + g * line * 0.6f, y + 1), ImVec2(x + (g + 1) * line * 0.6f, y + line - 1),
                      to_imcol(rank_colour(g, context.palette)));
  x += std::min(gpus_, 4) * line * 0.6f + line * 0.35f;
  dl->AddText(ImVec2(x, y), to_imcol(colours.muted_text), t.memory_legend_owned);
  ImGui::End();
}

bool MemoryView::draw_column(ImDrawList* dl, const Rect& area, const Column& column, double y_max,
                             const ViewContext& context) {
  const UiStrings& t = text();
  const ViewColours& colours = view_colours(context.theme);
  const float line = ImGui::GetTextLineHeight();
  const float s = context.scale;
  const ImU32 text = to_imcol(colours.text);
  const ImU32 muted = to_imcol(colours.muted_text);
  const double capacity = capacity_gb_ * 1e9;

  // The words around the chart, each measured before anything is drawn: when the column is
  // short they go in this order (the peak sentence, the step's second line, the closed form,
  // the traffic's second line) until the plot keeps at least five lines of height.
  const std::string title(strategy_title(column.strategy));
  if (!column.error.empty()) {
    TextRows rows{dl, area.x, area.y, area.w, line};
    rows.add(title, text);
    rows.add(column.error, to_imcol(colours.warning), 4);
    return true;
  }
  const double at_rest = static_cast<double>(column.estimate.largest().total());
  const bool fits = at_rest <= capacity;
  const std::string verdict = format(fits ? t.memory_fits : t.memory_does_not_fit, gb(capacity).c_str());
  const ImU32 verdict_colour = fits ? to_imcol(Rgb{96, 190, 116}) : to_imcol(colours.warning);
  const float title_w = ImGui::CalcTextSize(title.c_str()).x;
  const bool verdict_beside = title_w + line + ImGui::CalcTextSize(verdict.c_str()).x <= area.w;
  const std::string formula =
      format(t.memory_column_formula, latin_formula(column.estimate.formula).c_str(), gb(at_rest).c_str());
  const StepMoment moment = column_moment(column);
  const IterationStep& current = column.timeline.steps[static_cast<std::size_t>(moment.step)];
  const std::string per_iteration =
      format(t.memory_sent_per_iteration, gb(static_cast<double>(column.sent.per_iteration(0))).c_str());
  const std::string sent_so_far =
      resting() ? per_iteration
                : format(t.memory_sent_compact, gb(static_cast<double>(column.sent.until(moment, 0))).c_str(),
                         gb(static_cast<double>(column.sent.per_iteration(0))).c_str());
  const std::string traffic = resting() ? per_iteration
                                        : per_iteration + "  \xC2\xB7  " +
                                              format(t.memory_sent_so_far, gb(static_cast<double>(column.sent.until(moment, 0))).c_str());
  const std::string short_traffic =
      resting() ? format(t.memory_sent_short, gb(static_cast<double>(column.sent.per_iteration(0))).c_str()) : sent_so_far;
  const std::string step_words = resting() ? std::string(t.memory_at_rest_words) :
      format(t.memory_step_label, moment.step + 1, timeline_step_label(column.timeline, current, language_).c_str());
  register_glyph_text(step_words);  // worded by core from parts: the next atlas covers what it drew
  const std::string short_step_words =
      resting() ? std::string(t.memory_model_states)
                : format(t.memory_step, moment.step + 1, static_cast<int>(column.timeline.steps.size()));
  const std::string peak = peak_text(column.timeline, language_);
  const bool with_ring_button = !audience_ && context.open_in_ring && current.collective;

  const TextRows measure{dl, area.x, 0, area.w, line};
  const float row = line * 1.25f;
  const float names_h = line * 1.2f;
  const float strip_h = std::round(line * 0.9f);
  const float axis_w = ImGui::CalcTextSize("0000").x + line * 0.4f;
  const std::string cap_label = gb(capacity);
  const float cap_w = ImGui::CalcTextSize(cap_label.c_str()).x + line * 0.4f;
  struct Plan {
    bool peak = true, two_line_step = true, formula = true, two_line_traffic = true;
  };
  Plan plan;
  auto head_h = [&](const Plan& p) {
    return row * (verdict_beside ? 1 : 2) + (p.formula ? measure.height(formula) : 0) +
           std::max(measure.height(traffic, p.two_line_traffic ? 2 : 1), measure.height(short_traffic)) + line * 1.3f;
  };
  auto bottom_h = [&](const Plan& p) {
    return names_h + strip_h + line * 0.6f + (p.two_line_step ? line * 2.25f : row) +
           (with_ring_button ? line * 1.5f : 0) + (p.peak ? measure.height(peak, 3) : 0);
  };
  auto plot_h = [&](const Plan& p) { return area.h - head_h(p) - bottom_h(p); };
  for (bool Plan::*drop : {&Plan::peak, &Plan::two_line_step, &Plan::formula, &Plan::two_line_traffic}) {
    if (plot_h(plan) >= line * 5) break;
    plan.*drop = false;
  }
  const float plot_top = area.y + head_h(plan);
  const Rect plot{area.x + axis_w, plot_top, std::max(0.0f, area.w - axis_w - cap_w), plot_h(plan)};
  if (plot.h < line * 4 || plot.w < line * 4) return false;

  // The head: the strategy and whether it fits, its closed form, and its traffic.
  TextRows rows{dl, area.x, area.y, area.w, line};
  if (verdict_beside) {
    dl->AddText(ImVec2(area.x, rows.y), text, title.c_str());
    dl->AddText(ImVec2(area.x + title_w + line, rows.y), verdict_colour, verdict.c_str());
    rows.y += row;
  } else {
    rows.add(title, text);
    rows.add(verdict, verdict_colour);
  }
  if (plan.formula) rows.add(formula, muted);
  if (!rows.add(traffic, to_imcol(colours.phase_all_gather), plan.two_line_traffic ? 2 : 1))
    rows.add(short_traffic, to_imcol(colours.phase_all_gather));

  // Axis and grid, in GB: as many ticks as stay two lines apart.
  const int ticks = std::clamp(static_cast<int>(plot.h / (line * 2.0f)), 2, 6);
  const double step_gb = nice_step(y_max / 1e9, ticks);
  auto y_of = [&](double bytes) { return plot.bottom() - static_cast<float>(bytes / y_max) * plot.h; };
  for (double v = 0; v <= y_max / 1e9 + 1e-9; v += step_gb) {
    const float y = std::round(y_of(v * 1e9));
    dl->AddLine(ImVec2(plot.x, y), ImVec2(plot.right(), y), to_imcol(colours.box_border, v == 0 ? 1.0f : 0.35f));
    const std::string label = format("%g", v);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    dl->AddText(ImVec2(plot.x - size.x - line * 0.3f, y - size.y * 0.5f), muted, label.c_str());
  }
  dl->AddText(ImVec2(area.x, plot.y - line * 1.25f), muted, t.memory_axis);

  // The bars of this moment.
  const int n = gpus_;
  const float slot_w = plot.w / static_cast<float>(n);
  const float bar_w = std::max(1.0f, std::min(slot_w * 0.72f, line * 6));
  const float number_w = ImGui::CalcTextSize("000.0").x;
  const bool each_number = slot_w >= number_w + line * 0.3f;
  std::int64_t largest_total = 0;
  int largest_gpu = 0;
  for (int g = 0; g < n; ++g) {
    const GpuMemory memory = memory_at_moment(column.timeline, moment, g);
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
    // The total above the bar, or inside its top where the plot has no room above it.
    if (each_number) {
      const std::string value = gb_number(static_cast<double>(total));
      const float above = y_of(static_cast<double>(total)) - line * 1.1f;
      text_centred(dl, x0 + bar_w * 0.5f, std::max(plot.y, above),
                   static_cast<double>(total) > capacity ? to_imcol(colours.warning) : text, value.c_str());
    }
    // This GPU's peak over the iteration: a short tick, so a class sees how far the bar will go.
    const float peak_y = std::round(y_of(static_cast<double>(column.peak_per_gpu[static_cast<std::size_t>(g)])));
    dashed_line(dl, ImVec2(x0 - 2, peak_y), ImVec2(x0 + bar_w + 2, peak_y), to_imcol(colours.text, 0.75f),
                std::max(1.0f, s), 4 * s, 3 * s);
    // GPU names under the bars when they fit.
    const std::string name = format(ui_strings_for(language_).gpu_short, g);
    if (ImGui::CalcTextSize(name.c_str()).x <= slot_w - line * 0.2f)
      text_centred(dl, x0 + bar_w * 0.5f, plot.bottom() + line * 0.15f, to_imcol(rank), name.c_str());
  }
  if (!each_number) {
    // Too many bars for a number each: the largest one is named beside the axis unit.
    const std::string value = format(t.memory_largest_bar, largest_gpu, gb(static_cast<double>(largest_total)).c_str());
    dl->AddText(ImVec2(area.x + ImGui::CalcTextSize(t.memory_axis).x + line, plot.y - line * 1.25f), text, value.c_str());
  }

  // The capacity of the chosen GPU, across the plot, named in the gutter right of it.
  const float cap_y = std::round(y_of(capacity));
  dashed_line(dl, ImVec2(plot.x, cap_y), ImVec2(plot.right() + line * 0.2f, cap_y), to_imcol(colours.warning), 2 * s,
              9 * s, 5 * s);
  dl->AddText(ImVec2(plot.right() + line * 0.3f, cap_y - line * 0.5f), to_imcol(colours.warning), cap_label.c_str());

  // The step strip: every step of the iteration, compute above, communication below.
  const int steps = static_cast<int>(column.timeline.steps.size());
  const Rect strip{plot.x, plot.bottom() + names_h, plot.w, strip_h};
  dl->AddRectFilled(to_imvec(strip.min()), to_imvec(strip.max()), to_imcol(colours.box_background));
  const int pixels = std::max(1, static_cast<int>(strip.w));
  const int beats = std::max(1, column.beats.total);
  for (int p = 0; p < pixels; ++p) {
    const int first = step_moment(column.beats, static_cast<double>(p) * beats / pixels).step;
    const int last = std::max(first + 1, step_moment(column.beats, static_cast<double>(p + 1) * beats / pixels).step);
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
  // The strip is in beats, as the clock: a collective is as wide as its rounds.
  auto x_of_beat = [&](double beat) { return strip.x + static_cast<float>(beat / beats) * strip.w; };
  const int peak_step = column.timeline.peak.step;
  const float peak_x = std::round(x_of_beat(column.beats.first[static_cast<std::size_t>(peak_step)] +
                                            column.beats.length[static_cast<std::size_t>(peak_step)] * 0.5));
  dl->AddTriangleFilled(ImVec2(peak_x, strip.bottom() + 1), ImVec2(peak_x - line * 0.35f, strip.bottom() + line * 0.5f),
                        ImVec2(peak_x + line * 0.35f, strip.bottom() + line * 0.5f), to_imcol(colours.warning));
  const float cursor_x = std::round(x_of_beat(column.beats.first[static_cast<std::size_t>(moment.step)] + moment.into));
  dl->AddRectFilled(ImVec2(cursor_x - std::max(1.0f, s), strip.y - 3), ImVec2(cursor_x + std::max(1.0f, s), strip.bottom() + 3),
                    text);
  if (!audience_) {
    // Click or drag on the strip to move through the iteration.
    ImGui::SetCursorScreenPos(to_imvec(strip.min()));
    ImGui::InvisibleButton("##strip", ImVec2(std::max(1.0f, strip.w), strip.h));
    if (ImGui::IsItemActive() && beats > 0) {
      const float fraction = std::clamp((ImGui::GetIO().MousePos.x - strip.x) / std::max(1.0f, strip.w), 0.0f, 1.0f);
      at_rest_ = false;
      clock_.seek(fraction * beats);
    }
  }

  // What this step does, the collective it runs (ready to open in the ring view), the peak.
  TextRows words{dl, area.x, strip.bottom() + line * 0.6f, area.w, line};
  const ImU32 step_ink = to_imcol(step_colour(current.kind, colours));
  if (!words.add(step_words, step_ink, plan.two_line_step ? 2 : 1)) words.add(short_step_words, step_ink);
  words.y = strip.bottom() + line * 0.6f + (plan.two_line_step ? line * 2.25f : row);
  if (with_ring_button) {
    ImGui::SetCursorScreenPos(ImVec2(area.x, words.y));
    if (ImGui::Button(t.memory_open_in_ring)) {
      const Config config = readable_ring_config(*current.collective, gpus_, order_);
      context.open_in_ring(config, format(t.memory_opened_notice, current.collective->purpose.c_str(),
                                          static_cast<long long>(current.collective->elements),
                                          static_cast<long long>(config.count)));
    }
    // The bucket's real size beside the button, where it fits in the column.
    const std::string size = format(t.memory_collective_size, static_cast<long long>(current.collective->elements),
                                    std::string(dtype_name(current.collective->dtype)).c_str());
    ImGui::SameLine();
    if (ImGui::GetCursorScreenPos().x + ImGui::CalcTextSize(size.c_str()).x <= area.right())
      ImGui::TextDisabled("%s", size.c_str());
    else
      ImGui::NewLine();
    words.y += line * 1.5f;
  }
  if (plan.peak) words.add(peak, to_imcol(colours.warning), 3);
  return true;
}

}  // namespace ringviz::gui
