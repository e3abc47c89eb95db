#include "app/gui/views/iteration/iteration_view.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/caption_wrap.h"
#include "app/gui/text/font_loader.h"
#include "app/gui/text/strings.h"
#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/views/iteration/iteration_plots.h"
#include "app/gui/views/iteration/iteration_words.h"

namespace ringviz::gui {

namespace {

constexpr std::int64_t kSequences[] = {512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072};
constexpr int kTensorParallelSizes[] = {1, 2, 4, 8};  // a machine's GPUs at most

// A combo over an enum's values, showing `names[i]` for kAll[i].
template <class Enum, std::size_t N>
bool enum_combo(const char* label, Enum& value, const Enum (&all)[N], const char* const (&names)[N], float width) {
  bool changed = false;
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo(label, names[static_cast<std::size_t>(value)])) {
    for (std::size_t i = 0; i < N; ++i)
      if (ImGui::Selectable(names[i], all[i] == value)) {
        value = all[i];
        changed = true;
      }
    ImGui::EndCombo();
  }
  return changed;
}

bool int_field(const char* label, std::int64_t& value, std::int64_t low, std::int64_t high, float width) {
  int shown = static_cast<int>(std::clamp<std::int64_t>(value, low, high));
  ImGui::SetNextItemWidth(width);
  if (!ImGui::InputInt(label, &shown, 0, 0)) return false;
  value = std::clamp<std::int64_t>(shown, low, high);
  return true;
}

}  // namespace

IterationView::IterationView() { custom_ = query_.model; custom_.name = kCustomModelName; }

void IterationView::set_query(const IterationQuery& query) {
  query_ = query;
  query_.gpus = std::clamp(query_.gpus, 1, kMaxGpus);
  if (query_.model.name == kCustomModelName) custom_ = query_.model;
  moment_ = kAtPeak;
  dirty_ = true;
}

void IterationView::set_gpus(int gpus) {
  query_.gpus = std::clamp(gpus, 1, kMaxGpus);
  dirty_ = true;
}

void IterationView::set_moment(int event) { moment_ = event < 0 ? kAtPeak : event; }

int IterationView::moment() {
  const IterationEstimate* e = estimate();
  if (e == nullptr || e->timeline.empty()) return 0;
  if (moment_ == kAtPeak) return e->peak.event;
  return std::min(moment_, static_cast<int>(e->timeline.size()) - 1);
}

const IterationEstimate* IterationView::estimate() {
  if (dirty_) rebuild();
  return estimate_ ? &*estimate_ : nullptr;
}

const std::string& IterationView::error() {
  if (dirty_) rebuild();
  return error_;
}

void IterationView::rebuild() {
  dirty_ = false;
  estimate_.reset();
  error_.clear();
  try {
    estimate_ = estimate_iteration(query_);
  } catch (const std::exception& problem) {
    error_ = problem.what();
  }
  // The same transformer and run under every strategy, for the comparison on one scale.
  strategy_peaks_.clear();
  for (Strategy strategy : {Strategy::ddp, Strategy::zero1, Strategy::zero2, Strategy::zero3}) {
    StrategyPeak peak{strategy, 0};
    IterationQuery other = query_;
    other.strategy = strategy;
    try {
      peak.peak = strategy == query_.strategy && estimate_ ? estimate_->peak.memory.total()
                                                           : estimate_iteration(other).peak.memory.total();
    } catch (const std::exception&) {
      // Left at 0: drawn as a name without a bar.
    }
    strategy_peaks_.push_back(peak);
  }
}

void IterationView::advance(double seconds) {
  if (!playing_ || seconds <= 0) return;
  const IterationEstimate* e = estimate();
  if (e == nullptr) return;
  const int events = static_cast<int>(e->timeline.size());
  if (moment_ == kAtPeak) moment_ = 0;
  // A whole iteration in about ten seconds, whatever the number of layers.
  clock_ += seconds * std::max(2.0, events / 10.0);
  const int whole = static_cast<int>(clock_);
  clock_ -= whole;
  moment_ = std::min(events - 1, moment_ + whole);
  if (moment_ == events - 1) playing_ = false;
}

void IterationView::draw_model_controls(float field, bool split) {
  const UiStrings& t = text();
  const bool custom = query_.model.name == kCustomModelName;
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo(t.iteration_model, custom ? t.iteration_custom : std::string(query_.model.name).c_str())) {
    for (const TransformerShape& preset : transformer_presets())
      if (ImGui::Selectable(std::string(preset.name).c_str(), preset.name == query_.model.name)) {
        query_.model = preset;
        dirty_ = true;
      }
    if (ImGui::Selectable(t.iteration_custom, custom)) {
      if (!custom) {
        custom_ = query_.model;
        custom_.name = kCustomModelName;
        custom_.source = "";
      }
      query_.model = custom_;
      dirty_ = true;
    }
    ImGui::EndCombo();
  }
  if (!custom && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(query_.model.source).c_str());
  ImGui::SameLine();
  static const char* const kStrategyTitles[] = {"DDP", "ZeRO-1", "ZeRO-2", "ZeRO-3"};
  dirty_ |= enum_combo(t.iteration_strategy, query_.strategy, kAllStrategies, kStrategyTitles, field);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  dirty_ |= ImGui::SliderInt(t.memory_gpus, &query_.gpus, 1, kMaxGpus);
  if (!split) ImGui::SameLine();
  const double capacity_gb = query_.gpu_memory_bytes / 1e9;
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo(t.memory_capacity, format(t.memory_capacity_item, capacity_gb).c_str())) {
    for (double option : kGpuCapacitiesGB)
      if (ImGui::Selectable(format(t.memory_capacity_item, option).c_str(), option == capacity_gb)) {
        query_.gpu_memory_bytes = option * 1e9;
        dirty_ = true;
      }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo(t.iteration_accelerator, query_.accelerator.c_str())) {
    for (const Accelerator& accelerator : accelerator_presets())
      if (ImGui::Selectable(std::string(accelerator.label).c_str(), accelerator.name == query_.accelerator)) {
        query_.accelerator = std::string(accelerator.name);
        dirty_ = true;
      }
    ImGui::EndCombo();
  }
}

void IterationView::draw_run_controls(float field) {
  const UiStrings& t = text();
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo(t.iteration_seq, std::to_string(query_.seq).c_str())) {
    for (std::int64_t seq : kSequences)
      if (ImGui::Selectable(std::to_string(seq).c_str(), seq == query_.seq)) {
        query_.seq = seq;
        dirty_ = true;
      }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  dirty_ |= int_field(t.iteration_micro_batch, query_.micro_batch, 1, 1024, field * 0.6f);
  ImGui::SameLine();
  dirty_ |= enum_combo(t.iteration_recompute, query_.recompute, kAllRecomputes, t.iteration_recompute_names, field);
  ImGui::SameLine();
  dirty_ |= enum_combo(t.iteration_offload, query_.offload, kAllOffloads, t.iteration_offload_names, field);
}

void IterationView::draw_parallel_controls(float field) {
  const UiStrings& t = text();
  ImGui::SetNextItemWidth(field * 0.6f);
  if (ImGui::BeginCombo(t.iteration_tp, std::to_string(query_.tp).c_str())) {
    for (int tp : kTensorParallelSizes)
      if (ImGui::Selectable(std::to_string(tp).c_str(), tp == query_.tp)) {
        query_.tp = tp;
        if (tp == 1) query_.sp = false;  // SP splits across the TP group: nothing to split
        dirty_ = true;
      }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(query_.tp == 1);
  dirty_ |= ImGui::Checkbox(t.iteration_sp, &query_.sp);
  ImGui::EndDisabled();
  ImGui::SameLine();
  dirty_ |= enum_combo(t.iteration_attention, query_.attention, kAllAttentions, t.iteration_attention_names, field);
}

void IterationView::draw_custom_controls(float field) {
  const UiStrings& t = text();
  bool changed = int_field(t.iteration_layers, custom_.layers, 1, 10'000, field * 0.6f);
  ImGui::SameLine();
  changed |= int_field(t.iteration_hidden, custom_.hidden, 1, 1 << 20, field * 0.7f);
  ImGui::SameLine();
  changed |= int_field(t.iteration_heads, custom_.heads, 1, 4096, field * 0.6f);
  ImGui::SameLine();
  changed |= int_field(t.iteration_vocab, custom_.vocab, 1, 1 << 24, field * 0.8f);
  ImGui::SameLine();
  double billions = static_cast<double>(custom_.parameters) / 1e9;
  ImGui::SetNextItemWidth(field * 0.7f);
  if (ImGui::InputDouble(t.iteration_params, &billions, 0, 0, "%.3f")) {
    custom_.parameters = static_cast<std::int64_t>(std::clamp(billions, 1e-9, 1e6) * 1e9);
    changed = true;
  }
  if (changed) {
    query_.model = custom_;
    dirty_ = true;
  }
}

void IterationView::draw_stepper() {
  const UiStrings& t = text();
  const IterationEstimate* e = estimate();
  const int events = e ? static_cast<int>(e->timeline.size()) : 0;
  const int at = moment();
  if (ImGui::Button(t.memory_start)) { set_moment(0); pause(); }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##iteration_back", ImGuiDir_Left)) { set_moment(std::max(0, at - 1)); pause(); }
  ImGui::SameLine();
  if (ImGui::Button(playing_ ? t.pause : t.play)) {
    if (playing_) pause();
    else {
      if (moment_ == kAtPeak || at >= events - 1) set_moment(0);
      play();
    }
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##iteration_forward", ImGuiDir_Right)) {
    set_moment(std::min(std::max(0, events - 1), at + 1));
    pause();
  }
  ImGui::SameLine();
  if (ImGui::Button(t.iteration_peak_button)) { set_moment(kAtPeak); pause(); }
  ImGui::SameLine();
  int one_based = at + 1;
  const std::string what = e ? iteration_event_text(*e, at, language_) : std::string();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##iteration_moment", &one_based, 1, std::max(1, events),
                       format(t.iteration_moment, one_based, events, what.c_str()).c_str())) {
    set_moment(one_based - 1);
    pause();
  }
}

void IterationView::draw(const Rect& area, const ViewContext& context) {
  language_ = context.language;
  const UiStrings& t = text();
  const ViewColours& colours = view_colours(context.theme);
  // The combos of a row share its width with their labels; a narrow view puts the GPU memory
  // and the accelerator on a row of their own rather than shrinking every combo to a stub.
  auto field_for = [&](std::initializer_list<const char*> labels, float fields) {
    float used = ImGui::GetStyle().WindowPadding.x * 2;
    for (const char* label : labels)
      used += ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemSpacing.x + ImGui::GetStyle().ItemInnerSpacing.x;
    return (area.w - used) / fields;
  };
  const float run_row = field_for({t.iteration_seq, t.iteration_micro_batch, t.iteration_recompute, t.iteration_offload}, 3.6f);
  const float one_row = std::min(run_row, field_for({t.iteration_model, t.iteration_strategy, t.memory_gpus,
                                                     t.memory_capacity, t.iteration_accelerator}, 5));
  const bool split = one_row < 80 * context.scale;
  const float widest = split ? std::min(run_row, field_for({t.iteration_model, t.iteration_strategy, t.memory_gpus}, 3))
                             : one_row;
  const float field = std::round(std::clamp(widest, 48 * context.scale, 110 * context.scale));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const float pad = std::round(line * 0.5f);
  float content_top = 0;
  if (audience_) {
    // What is modelled, and the moment: the words a viewer needs in place of the controls.
    const std::string summary = iteration_audience_summary(query_, language_);
    register_glyph_text(summary);
    const IterationEstimate* shown = estimate();
    const std::string moment_words =
        shown ? format(t.iteration_moment, moment() + 1, static_cast<int>(shown->timeline.size()),
                       iteration_event_text(*shown, moment(), language_).c_str())
              : std::string();
    const float wrap = area.w - 2 * pad;
    float y = area.y + pad * 0.5f;
    for (const std::string& words : {summary, moment_words}) {
      if (words.empty()) continue;
      // Wrapped as the captions are, so that no line ends at "micro-batch" before its "1".
      for (const std::string& words_line : wrap_caption(*ImGui::GetFont(), ImGui::GetFontSize(), words, wrap)) {
        dl->AddText(ImVec2(area.x + pad, y), to_imcol(colours.muted_text), words_line.c_str());
        y += line;
      }
      y += line * 0.2f;
    }
    content_top = y;
  } else {
    ImGui::PushID("iteration");
    draw_model_controls(field, split);
    draw_run_controls(field);
    draw_parallel_controls(field);
    if (query_.model.name == kCustomModelName) draw_custom_controls(field);
    draw_stepper();
    ImGui::PopID();
    content_top = ImGui::GetCursorScreenPos().y;
  }
  const Rect body{area.x + pad, content_top + pad * 0.5f, area.w - 2 * pad,
                  std::max(0.0f, area.bottom() - content_top - pad)};
  const IterationEstimate* e = estimate();
  if (e == nullptr) {
    dl->AddText(nullptr, 0, to_imvec(body.min()), to_imcol(colours.warning), error().c_str(), nullptr, body.w);
    return;
  }
  const IterationPlotStyle style{context.theme, context.palette, context.scale, context.language};
  const int at = moment();

  // The verdict and the peak's cause first: the answer before the picture. Every block is
  // measured before anything is drawn; on a short view the notes go first, then the strategy
  // comparison, the host memory and the peak sentence, then the text shrinks (down to 70%)
  // until each chart keeps a readable height; a view that still cannot hold them says so
  // instead of piling text up.
  const std::string verdict = iteration_fit_text(*e, language_);
  const std::string peak = iteration_peak_text(*e, language_);
  std::string notes = std::string(t.iteration_same_on_every_gpu) + " ";
  // The caveat speaks of the GPT block at t = 1; with TP, SP or FlashAttention the note says
  // what is counted instead, and only the block's clause of the caveat still holds.
  if (query_.tp > 1 || query_.attention == Attention::flash) {
    const std::string parallel = format(t.iteration_parallel_note, query_.tp, query_.sp ? " + SP" : "",
                                        query_.gpus / std::max(1, query_.tp),
                                        t.iteration_attention_names[static_cast<std::size_t>(query_.attention)]);
    register_glyph_text(parallel);
    notes += parallel + " " + t.iteration_caveat_gpt_block;
  } else {
    notes += t.iteration_caveat;
  }
  const std::string host =
      e->host_per_gpu > 0 ? format(t.iteration_host, iteration_gb(static_cast<double>(e->host_per_gpu)).c_str(),
                                   iteration_gb(static_cast<double>(e->host_per_machine)).c_str(),
                                   iteration_gb(static_cast<double>(e->pcie_bytes_per_gpu)).c_str())
                          : std::string();
  struct Plan {
    bool notes = true, host = true, strategies = true, peak = true;
  };
  struct Layout {
    Plan plan;
    float line = 0, text_wrap = 0, verdict_h = 0, legend_h = 0, time_h = 0, peaks_h = 0, saw_words_h = 0;
    float bars_w = 0, right_w = 0, gap = 0;
    bool side_by_side = false;
    float text_h(const std::string& text) const { return ImGui::CalcTextSize(text.c_str(), nullptr, false, text_wrap).y; }
  };
  auto measure = [&](float font_scale) {
    ImGui::SetWindowFontScale(font_scale);
    Layout l;
    l.line = ImGui::GetTextLineHeight();
    l.text_wrap = std::max(1.0f, body.w);
    l.side_by_side = body.w >= l.line * 36;
    l.gap = l.line * 1.5f;
    l.bars_w = l.side_by_side ? std::round(body.w * 0.42f) : body.w;
    l.right_w = l.side_by_side ? body.w - l.bars_w - l.gap : body.w;
    l.verdict_h = l.line * 1.25f;
    // The part legend and the time bar run across the whole width under the charts.
    l.legend_h = draw_part_legend(nullptr, ImVec2(0, 0), body.w, style) + l.line * 0.3f;
    l.time_h = draw_time_bar(nullptr, {0, 0, body.w, 0}, e->time, style) + l.line * 0.6f;
    l.peaks_h = draw_strategy_peaks(nullptr, {0, 0, l.right_w, 0}, strategy_peaks_, 0, query_.strategy, style) + l.line * 0.5f;
    l.saw_words_h = ImGui::CalcTextSize(t.iteration_sawtooth, nullptr, false, std::max(1.0f, l.right_w)).y + l.line;
    return l;
  };
  // The height the charts share: what the words above and below, the legend and the time bar leave.
  auto charts_h = [&](const Layout& l) {
    const Plan& p = l.plan;
    const float words = l.verdict_h + (p.peak ? l.text_h(peak) + l.line * 0.4f : 0);
    const float below = (p.notes ? l.text_h(notes) + l.line * 0.4f : 0) +
                        (p.host && !host.empty() ? l.text_h(host) + l.line * 0.3f : 0);
    return body.h - words - below - l.time_h - l.legend_h;
  };
  // The plot height the smaller chart gets: the bars under their axis unit and over the GPU
  // names, the sawtooth under its title and over the strategies; stacked, they share it.
  auto chart_h = [&](const Layout& l) {
    const float room = charts_h(l);
    const float right_fixed = (l.plan.strategies ? l.peaks_h : 0) + l.saw_words_h;
    if (l.side_by_side) return std::min(room - l.line * 2.6f, room - right_fixed);
    return (room - right_fixed - l.line * 2.6f) * 0.5f;
  };
  Layout l;
  for (float font_scale : {1.0f, 0.85f, 0.7f}) {
    l = measure(font_scale);
    for (bool Plan::*drop : {&Plan::notes, &Plan::strategies, &Plan::host, &Plan::peak}) {
      if (chart_h(l) >= l.line * 6) break;
      l.plan.*drop = false;
    }
    if (chart_h(l) >= l.line * 4) break;
  }
  const float line_now = l.line;
  if (chart_h(l) < line_now * 4) {
    dl->AddText(nullptr, 0, to_imvec(body.min()), to_imcol(colours.warning), t.iteration_too_small, nullptr, l.text_wrap);
    ImGui::SetWindowFontScale(1.0f);
    return;
  }
  float y = body.y;
  dl->AddText(ImVec2(body.x, y), e->fits ? to_imcol(Rgb{96, 190, 116}) : to_imcol(colours.warning), verdict.c_str());
  y += l.verdict_h;
  if (l.plan.peak) {
    dl->AddText(nullptr, 0, ImVec2(body.x, y), to_imcol(colours.text), peak.c_str(), nullptr, l.text_wrap);
    y += l.text_h(peak) + line_now * 0.4f;
  }
  const float room = charts_h(l);
  const float right_fixed = (l.plan.strategies ? l.peaks_h : 0) + l.saw_words_h;
  const float stacked_bars_h = (room - right_fixed - line_now * 2.6f) * 0.5f + line_now * 2.6f;
  const Rect bars{body.x, y, l.bars_w, l.side_by_side ? room : stacked_bars_h};
  const Rect right = l.side_by_side ? Rect{body.x + l.bars_w + l.gap, y, l.right_w, room}
                                    : Rect{body.x, bars.bottom(), body.w, room - stacked_bars_h};
  const IterationMemory& now = e->timeline[static_cast<std::size_t>(at)].memory;
  const double top = nice_ceiling(std::max(e->query.gpu_memory_bytes, static_cast<double>(e->peak.memory.total())) *
                                      1.06 / 1e9, 6) * 1e9;
  draw_gpu_bars(dl, bars, now, e->query.gpus, e->query.gpu_memory_bytes, top, style);

  const Rect saw{right.x, right.y, right.w, right.h - (l.plan.strategies ? l.peaks_h : 0)};
  const int clicked = draw_sawtooth(dl, saw, *e, at, style);
  if (clicked >= 0 && !audience_) {
    set_moment(clicked);
    pause();
  }
  if (l.plan.strategies)
    draw_strategy_peaks(dl, {right.x, saw.bottom() + line_now * 0.2f, right.w, l.peaks_h}, strategy_peaks_,
                        e->query.gpu_memory_bytes, query_.strategy, style);
  y += room;
  draw_part_legend(dl, ImVec2(body.x, y + line_now * 0.15f), body.w, style);
  y += l.legend_h;
  draw_time_bar(dl, {body.x, y + line_now * 0.2f, body.w, l.time_h}, e->time, style);
  y += l.time_h;

  // Host memory when offloading, and where the activation counts come from.
  if (l.plan.host && !host.empty()) {
    dl->AddText(nullptr, 0, ImVec2(body.x, y), to_imcol(colours.text), host.c_str(), nullptr, l.text_wrap);
    y += l.text_h(host) + line_now * 0.3f;
  }
  if (l.plan.notes)
    dl->AddText(nullptr, 0, ImVec2(body.x, y + line_now * 0.2f), to_imcol(colours.muted_text), notes.c_str(), nullptr,
                l.text_wrap);
  ImGui::SetWindowFontScale(1.0f);
}

}  // namespace ringviz::gui
