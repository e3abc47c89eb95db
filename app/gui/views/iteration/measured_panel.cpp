#include "app/gui/views/iteration/measured_panel.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <imgui.h>

#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/render/theme.h"
#include "app/gui/text/font_loader.h"
#include "app/gui/text/strings.h"
#include "core/model/input_error.h"

namespace ringviz::gui {

namespace {

std::string bytes_text(std::int64_t bytes) { return std::to_string(bytes) + " B"; }

std::string signed_text(std::int64_t bytes) { return (bytes > 0 ? "+" : "") + bytes_text(bytes); }

std::string tolerance_text(const MemoryTermComparison& t) {
  if (t.low == 0 && t.high == 0) return "0";
  if (t.low == -t.high) return "±" + bytes_text(t.high);
  return "[" + signed_text(t.low) + ", " + signed_text(t.high) + "]";  // worded alike in both languages
}

// The job's configurations in the order it measured them.
std::vector<std::string> labels_of(const Job& job) {
  std::vector<std::string> labels;
  for (const MeasuredMemory& m : job.memory)
    if (std::find(labels.begin(), labels.end(), m.label) == labels.end()) labels.push_back(m.label);
  return labels;
}

}  // namespace

void MeasuredMemoryPanel::draw(const Rect& area, const ViewContext& context, const Job& job, bool audience) {
  const UiStrings& t = ui_strings_for(context.language);
  const ViewColours& colours = view_colours(context.theme);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const float pad = std::round(line * 0.5f);
  const std::vector<std::string> labels = labels_of(job);
  if (labels.empty()) {
    dl->AddText(nullptr, 0, ImVec2(area.x + pad, ImGui::GetCursorScreenPos().y), to_imcol(colours.muted_text),
                t.measured_none, nullptr, area.w - 2 * pad);
    return;
  }
  configuration_ = std::min(configuration_, labels.size() - 1);
  std::vector<int> ranks;
  for (const MeasuredMemory& m : job.memory)
    if (m.label == labels[configuration_]) ranks.push_back(m.rank);
  if (std::find(ranks.begin(), ranks.end(), rank_) == ranks.end()) rank_ = ranks.front();

  if (!audience) {
    ImGui::SetNextItemWidth(std::round(line * 14));
    if (ImGui::BeginCombo(t.measured_configuration, labels[configuration_].c_str())) {
      for (std::size_t i = 0; i < labels.size(); ++i)
        if (ImGui::Selectable(labels[i].c_str(), i == configuration_)) configuration_ = i;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::round(line * 4));
    if (ImGui::BeginCombo(t.measured_rank, std::to_string(rank_).c_str())) {
      for (int rank : ranks)
        if (ImGui::Selectable(std::to_string(rank).c_str(), rank == rank_)) rank_ = rank;
      ImGui::EndCombo();
    }
  }
  const MeasuredMemory* chosen = nullptr;
  for (const MeasuredMemory& m : job.memory)
    if (m.label == labels[configuration_] && m.rank == rank_) chosen = &m;
  if (!shown_ || shown_->measured.label != chosen->label || shown_->measured.rank != chosen->rank ||
      shown_->language != context.language) {
    error_.clear();
    shown_.reset();
    try {
      shown_ = compare_measured_memory(*chosen, context.language);
    } catch (const InputError& problem) {
      error_ = problem.what();
    }
  }
  float y = audience ? area.y + pad : ImGui::GetCursorScreenPos().y;
  const float x = area.x + pad;
  const float width = area.w - 2 * pad;
  if (!shown_) {
    dl->AddText(nullptr, 0, ImVec2(x, y), to_imcol(colours.warning), error_.c_str(), nullptr, width);
    return;
  }
  const MemoryComparison& c = *shown_;
  const std::string heading = format(t.measured_heading, c.measured.label.c_str(), c.measured.rank,
                                     c.measured.world_size, std::string(convention_name(c.convention)).c_str());
  register_glyph_text(heading);
  dl->AddText(nullptr, 0, ImVec2(x, y), to_imcol(colours.text), heading.c_str(), nullptr, width);
  y += ImGui::CalcTextSize(heading.c_str(), nullptr, false, width).y + line * 0.3f;

  // Each term: its line of words, then the measured bar above the model's. The bars share one
  // scale, the largest value of any term; a view too short for every term shrinks the bars, then
  // leaves the last terms to `ringviz memory --from-job` and says so.
  const float label_w = std::max(ImGui::CalcTextSize(t.measured_bar).x, ImGui::CalcTextSize(t.model_bar).x) + pad;
  const float available = area.bottom() - y - pad;
  const auto terms = static_cast<float>(c.terms.size());
  float bar_h = std::round(line * 0.7f);
  const auto row_height = [&](float bar) { return line + 2 * bar + line * 0.45f; };
  while (bar_h > std::round(line * 0.3f) && row_height(bar_h) * terms > available) bar_h -= 1;
  const int fitting = std::max(0, static_cast<int>((available - line) / row_height(bar_h)));
  const int drawn = static_cast<int>(c.terms.size()) <= fitting ? static_cast<int>(c.terms.size()) : std::max(0, fitting - 1);
  std::int64_t largest = 1;
  for (const MemoryTermComparison& term : c.terms) largest = std::max({largest, term.measured, term.model});
  const Rgb measured_colour = colours.phase_reduce_scatter;
  const Rgb model_colour = colours.phase_all_gather;
  const float bar_w = std::max(0.0f, width - label_w);
  for (int i = 0; i < drawn; ++i) {
    const MemoryTermComparison& term = c.terms[static_cast<std::size_t>(i)];
    const char* verdict = term.within() ? t.measured_within : t.measured_outside;
    std::string words = format(t.measured_row, term.name.c_str(), bytes_text(term.measured).c_str(),
                               bytes_text(term.model).c_str(), signed_text(term.difference()).c_str(),
                               tolerance_text(term).c_str(), verdict);
    if (ImGui::CalcTextSize(words.c_str()).x > width)
      words = format(t.measured_row_short, term.name.c_str(), signed_text(term.difference()).c_str(), verdict);
    register_glyph_text(words);
    register_glyph_text(term.why);  // the tooltip
    const Rect row{x, y, width, row_height(bar_h)};
    dl->AddText(ImVec2(x, y), to_imcol(term.within() ? colours.text : colours.warning), words.c_str());
    float bar_y = y + line + line * 0.1f;
    for (const auto& [name, bytes, colour] :
         {std::tuple{t.measured_bar, term.measured, measured_colour}, std::tuple{t.model_bar, term.model, model_colour}}) {
      // The bar's word sits on its bar: a bar shorter than a line draws it smaller, never taller
      // than the bar, so the two words never touch.
      const float font = std::min(ImGui::GetFontSize(), bar_h);
      dl->AddText(nullptr, font, ImVec2(x, bar_y + (bar_h - font) * 0.5f), to_imcol(colours.muted_text), name);
      const float w = bar_w * static_cast<float>(static_cast<double>(bytes) / static_cast<double>(largest));
      dl->AddRectFilled(ImVec2(x + label_w, bar_y), ImVec2(x + label_w + std::max(w, 1.0f), bar_y + bar_h - 1),
                        to_imcol(colour));
      bar_y += bar_h;
    }
    if (!audience && ImGui::IsMouseHoveringRect(to_imvec(row.min()), to_imvec(row.max())))
      ImGui::SetTooltip("%s", term.why.c_str());
    y += row_height(bar_h);
  }
  if (drawn < static_cast<int>(c.terms.size())) {
    const std::string more = format(t.measured_more, static_cast<int>(c.terms.size()) - drawn);
    dl->AddText(ImVec2(x, y), to_imcol(colours.muted_text), more.c_str());
  }
}

}  // namespace ringviz::gui
