#include "app/gui/views/compare_view.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/gui/compare/compare_sentence.h"
#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/views/link_view.h"
#include "app/gui/text/strings.h"
#include "core/engine/session.h"
#include "core/model/input_error.h"

namespace ringviz::gui {

Rgb algorithm_colour(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::ring: return {72, 139, 240};
    case Algorithm::naive: return {160, 164, 174};
    case Algorithm::direct: return {228, 88, 104};
    case Algorithm::rhd: return {80, 185, 110};
    case Algorithm::tree: return {176, 124, 236};
    case Algorithm::tree_pipelined: return {236, 164, 64};
  }
  return {200, 200, 200};
}

std::string format_seconds(double seconds) {
  const double a = std::fabs(seconds);
  if (a < 1e-6) return format("%.0f ns", seconds * 1e9);
  if (a < 1e-3) return format("%.3g us", seconds * 1e6);
  if (a < 1) return format("%.3g ms", seconds * 1e3);
  return format("%.3g s", seconds);
}

namespace {

std::string g_startup_topology = "star";

}  // namespace

void set_startup_compare_topology(const std::string& text) {
  const std::string kind = topology_choice_kind(text);
  if (kind.empty()) {
    std::string kinds;
    for (const std::string& option : topology_choice_kinds()) kinds += (kinds.empty() ? "" : " | ") + option;
    throw InputError("--compare-topology: unknown topology '" + text + "' (expected " + kinds +
                     "; the GPU count follows --gpus)");
  }
  g_startup_topology = kind;
}

CompareView::CompareView() : topology_{g_startup_topology} {}

void CompareView::set_link(const std::string& key) {
  for (const LinkModel& link : link_presets())
    if (link.key == key) link_key_ = key;
}

void CompareView::set_topology(const std::string& text) {
  const std::string kind = topology_choice_kind(text);
  if (!kind.empty()) topology_.kind = kind;
}

ComparisonQuestion CompareView::question_for(const Config& config) const {
  return {config, topology_.spec_for_gpus(config.ranks), link_key_};
}

const ComparisonAnswer* CompareView::answer_for(const Config& config, bool wait) {
  answer_ = job_.answer(question_for(config), wait);
  return answer_;
}

const CostComparison* CompareView::comparison_for(const Config& config) {
  const ComparisonAnswer* answer = answer_for(config, true);
  return answer && answer->comparison ? &*answer->comparison : nullptr;
}

const std::string& CompareView::error() const {
  static const std::string kNone;
  return answer_ ? answer_->error : kNone;
}

std::string CompareView::sentence() const {
  if (answer_ == nullptr || !answer_->comparison) return {};
  return comparison_sentence(*answer_->comparison, view_strings());
}

void CompareView::draw_machine_selector(const Config& config) {
  const UiStrings& t = view_strings();
  const float line = ImGui::GetTextLineHeight();
  // The kinds, each at the setup panel's GPU count; the star keeps the link selector.
  auto shown_name = [&](const TopologyChoice& choice) {
    return choice.is_star() ? std::string(t.compare_topology_star) : choice.spec_for_gpus(config.ranks);
  };
  ImGui::SetNextItemWidth(std::round(line * 9));
  if (ImGui::BeginCombo(t.compare_topology, shown_name(topology_).c_str())) {
    for (const std::string& kind : topology_choice_kinds()) {
      const TopologyChoice option{kind};
      if (ImGui::Selectable(shown_name(option).c_str(), kind == topology_.kind)) topology_ = option;
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (topology_.is_star()) {
    const LinkModel& link = find_link_preset(link_key_);
    // Wide enough for the link's whole name ("NVLink 4 (H100/H200)" was cut at 12 lines).
    ImGui::SetNextItemWidth(std::round(std::max(line * 12, ImGui::CalcTextSize(link.label.c_str()).x +
                                                               ImGui::GetFrameHeight() +
                                                               ImGui::GetStyle().FramePadding.x * 2)));
    if (ImGui::BeginCombo("##link", link.label.c_str())) {
      for (const LinkModel& option : link_presets())
        if (ImGui::Selectable(option.label.c_str(), option.key == link_key_)) link_key_ = option.key;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::TextDisabled(t.compare_link_figures, link.alpha_seconds * 1e6, link.bytes_per_second / 1e9);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", link_note_text(link).c_str());
  } else if (answer_ && answer_->comparison) {
    // Core's label of the machine simulated, in the UI language.
    ImGui::TextDisabled("%s", topology_label_text(answer_->comparison->topology).c_str());
  }
}

void CompareView::draw(const Rect& area, const ViewContext& context) {
  const UiStrings& t = view_strings();
  const ViewColours& colours = view_colours(context.theme);
  ImDrawList* dl = begin_view_window("##compare_view", area, colours);
  if (context.session == nullptr) {
    ImGui::End();
    return;
  }
  const Config& config = context.session->config();
  const float line = ImGui::GetTextLineHeight();
  const float pad = std::round(line * 0.5f);

  // Left: the question, the link, the table and the plot. Right: the link view.
  const float right_w = std::round(std::clamp(area.w * 0.36f, line * 16, line * 30));
  const Rect left{area.x, area.y, area.w - right_w, area.h};
  const Rect right{left.right() + pad, area.y + pad, right_w - 2 * pad, area.h - 2 * pad};

  ImGui::PushTextWrapPos(left.right() - pad - area.x);
  const std::int64_t message = config.count * static_cast<std::int64_t>(dtype_size(config.dtype));
  ImGui::Text(t.compare_question, std::string(op_name(config.op)).c_str(), static_cast<long long>(config.count),
              std::string(dtype_name(config.dtype)).c_str(), format_bytes(static_cast<double>(message)).c_str(),
              config.ranks);
  answer_for(config, context.wait_for_answers);
  draw_machine_selector(config);
  // The selector may have changed the question: ask again, so this frame shows its answer or
  // "computing...", never the old machine's figures under the new machine's name.
  const ComparisonAnswer* answer = answer_for(config, context.wait_for_answers);
  ImGui::PopTextWrapPos();

  LinkViewInput link_input;
  if (answer == nullptr) {
    ImGui::TextDisabled("%s", t.compare_computing);
  } else if (!answer->comparison) {
    ImGui::PushTextWrapPos(left.right() - pad - area.x);
    ImGui::TextWrapped("%s", answer->error.c_str());
    ImGui::PopTextWrapPos();
  } else {
    const CostComparison& comparison = *answer->comparison;
    link_input = {&comparison, &*answer->routes};
    draw_table(comparison, config, context, left.w - 2 * pad);
    const ImVec2 cursor = ImGui::GetCursorScreenPos();
    const Rect plot_area{left.x + pad, cursor.y + pad * 0.5f, left.w - 2 * pad, std::max(0.0f, left.bottom() - cursor.y - pad)};
    draw_plot(dl, plot_area, comparison, config, context);
  }

  dl->AddLine(ImVec2(left.right(), area.y + pad), ImVec2(left.right(), area.bottom() - pad), to_imcol(colours.box_border));
  draw_link_view(dl, right, context, link_input);
  ImGui::End();
}

void CompareView::draw_table(const CostComparison& comparison, const Config& current, const ViewContext& context,
                             float width) {
  const UiStrings& t = view_strings();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##compare", 6, flags, ImVec2(width, 0))) return;
  ImGui::TableSetupColumn(t.compare_algorithm, ImGuiTableColumnFlags_WidthStretch, 1.25f);
  ImGui::TableSetupColumn(t.compare_rounds, ImGuiTableColumnFlags_WidthStretch, 0.6f);
  ImGui::TableSetupColumn(t.compare_messages, ImGuiTableColumnFlags_WidthStretch, 0.8f);
  ImGui::TableSetupColumn(t.compare_sent, ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn(t.compare_busiest, ImGuiTableColumnFlags_WidthStretch, 1.45f);
  ImGui::TableSetupColumn(t.compare_time, ImGuiTableColumnFlags_WidthStretch, 0.95f);
  ImGui::TableHeadersRow();
  // The fastest at this size gets a mark; the algorithm of the setup panel is selected.
  double fastest = 1e300;
  for (const CostEstimate& estimate : comparison.at_count) fastest = std::min(fastest, estimate.seconds);
  for (std::size_t i = 0; i < comparison.algorithms.size(); ++i) {
    const Algorithm algorithm = comparison.algorithms[i];
    const CostEstimate& estimate = comparison.at_count[i];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(algorithm_colour(algorithm)));
    const bool selected = algorithm == current.algorithm;
    if (ImGui::Selectable(std::string(algorithm_name(algorithm)).c_str(), selected, ImGuiSelectableFlags_SpanAllColumns) &&
        !selected && context.choose_algorithm)
      context.choose_algorithm(algorithm);
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(cost_formula(algorithm, current.op)).c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%d", estimate.rounds);
    ImGui::TableSetColumnIndex(2);
    ImGui::Text("%lld", static_cast<long long>(estimate.messages));
    ImGui::TableSetColumnIndex(3);
    ImGui::TextUnformatted(format_bytes(static_cast<double>(estimate.max_bytes_sent)).c_str());
    ImGui::TableSetColumnIndex(4);
    ImGui::Text(estimate.busiest_link_inbound ? t.compare_link_in : t.compare_link_out,
                format_bytes(static_cast<double>(estimate.busiest_link_bytes)).c_str(), estimate.busiest_link_rank);
    ImGui::TableSetColumnIndex(5);
    const bool best = estimate.seconds <= fastest * (1 + 1e-6);
    if (best) ImGui::TextColored(ImVec4(0.4f, 0.85f, 0.5f, 1), "%s *", format_seconds(estimate.seconds).c_str());
    else ImGui::TextUnformatted(format_seconds(estimate.seconds).c_str());
  }
  ImGui::EndTable();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  hint_text(t.compare_table_hint);
  ImGui::PopTextWrapPos();
}

void CompareView::draw_plot(ImDrawList* dl, const Rect& area, const CostComparison& comparison, const Config& current,
                            const ViewContext& context) {
  const UiStrings& t = view_strings();
  if (comparison.sweep_bytes.size() < 2) return;
  const ViewColours& colours = view_colours(context.theme);
  const float line = ImGui::GetTextLineHeight();
  const float s = context.scale;
  const ImU32 muted = to_imcol(colours.muted_text);
  dl->AddText(ImVec2(area.x, area.y), to_imcol(colours.text), t.compare_plot_title);

  double low = 1e300, high = 0;
  for (const auto& series : comparison.sweep_seconds)
    for (double seconds : series)
      if (seconds > 0) {
        low = std::min(low, seconds);
        high = std::max(high, seconds);
      }
  if (!(high > 0)) return;
  const double y0 = std::floor(std::log10(low)), y1 = std::max(y0 + 1, std::ceil(std::log10(high)));
  const double x0 = std::log2(static_cast<double>(comparison.sweep_bytes.front()));
  const double x1 = std::log2(static_cast<double>(comparison.sweep_bytes.back()));
  const float axis_w = ImGui::CalcTextSize("100 ms").x + line * 0.4f;
  const float legend_w = ImGui::CalcTextSize("tree_pipelined").x + line * 2;
  // Said from the data drawn above it, so it cannot contradict the plot.
  const std::string sentence = comparison_sentence(comparison, t);
  const float sentence_h = ImGui::CalcTextSize(sentence.c_str(), nullptr, false, area.w).y;
  const Rect plot{area.x + axis_w, area.y + line * 1.4f, std::max(line, area.w - axis_w - legend_w),
                  std::max(line, area.h - line * 2.8f - sentence_h)};
  dl->AddRectFilled(to_imvec(plot.min()), to_imvec(plot.max()), to_imcol(colours.box_background, 0.5f));
  auto x_of = [&](double bytes) { return plot.x + static_cast<float>((std::log2(bytes) - x0) / (x1 - x0)) * plot.w; };
  auto y_of = [&](double seconds) {
    return plot.bottom() - static_cast<float>((std::log10(seconds) - y0) / (y1 - y0)) * plot.h;
  };

  // Decades of time, and every fourth doubling of size (1 KiB, 16 KiB, ..., 1 GiB).
  for (double e = y0; e <= y1 + 1e-9; e += 1) {
    const float y = std::round(y_of(std::pow(10.0, e)));
    dl->AddLine(ImVec2(plot.x, y), ImVec2(plot.right(), y), to_imcol(colours.box_border, 0.45f));
    const std::string label = format_seconds(std::pow(10.0, e));
    dl->AddText(ImVec2(plot.x - ImGui::CalcTextSize(label.c_str()).x - line * 0.3f, y - line * 0.5f), muted, label.c_str());
  }
  for (double e = std::ceil(x0); e <= x1 + 1e-9; e += 1) {
    const float x = std::round(x_of(std::pow(2.0, e)));
    const bool labelled = static_cast<long long>(e) % 4 == 2;  // 1 KiB is 2^10
    dl->AddLine(ImVec2(x, plot.y), ImVec2(x, plot.bottom()), to_imcol(colours.box_border, labelled ? 0.45f : 0.18f));
    if (labelled) {
      const std::string label = size_words(static_cast<std::int64_t>(std::pow(2.0, e)));
      text_centred(dl, x, plot.bottom() + line * 0.15f, muted, label.c_str());
    }
  }

  // The setup panel's message size.
  const double message = static_cast<double>(current.count) * static_cast<double>(dtype_size(current.dtype));
  if (message >= comparison.sweep_bytes.front() && message <= comparison.sweep_bytes.back()) {
    const float x = std::round(x_of(message));
    dashed_line(dl, ImVec2(x, plot.y), ImVec2(x, plot.bottom()), to_imcol(colours.text, 0.7f), std::max(1.0f, s), 4 * s, 3 * s);
    dl->AddText(ImVec2(x + 3, plot.bottom() - line * 1.2f), to_imcol(colours.text, 0.8f), t.compare_this_size);
  }

  // A line per algorithm, the setup panel's one thickest and drawn last, on top of any it ties.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < comparison.algorithms.size(); ++i)
    if (comparison.algorithms[i] != current.algorithm) order.push_back(i);
  for (std::size_t i = 0; i < comparison.algorithms.size(); ++i)
    if (comparison.algorithms[i] == current.algorithm) order.push_back(i);
  for (std::size_t i : order) {
    std::vector<ImVec2> points;
    for (std::size_t k = 0; k < comparison.sweep_bytes.size(); ++k)
      points.push_back(ImVec2(x_of(static_cast<double>(comparison.sweep_bytes[k])), y_of(comparison.sweep_seconds[i][k])));
    const bool chosen = comparison.algorithms[i] == current.algorithm;
    polyline(dl, points, to_imcol(algorithm_colour(comparison.algorithms[i])), (chosen ? 3.0f : 1.6f) * s);
  }

  // Crossovers: where the fastest algorithm changes.
  for (std::size_t c = 0; c < comparison.crossovers.size(); ++c) {
    const Crossover& crossover = comparison.crossovers[c];
    std::size_t faster = 0;
    for (std::size_t i = 0; i < comparison.algorithms.size(); ++i)
      if (comparison.algorithms[i] == crossover.faster) faster = i;
    std::size_t k = 0;
    while (k + 1 < comparison.sweep_bytes.size() && comparison.sweep_bytes[k] < crossover.bytes) ++k;
    const ImVec2 p(x_of(static_cast<double>(crossover.bytes)), y_of(comparison.sweep_seconds[faster][k]));
    dashed_line(dl, ImVec2(p.x, p.y), ImVec2(p.x, plot.bottom()), to_imcol(colours.warning, 0.8f), std::max(1.0f, s), 3 * s, 3 * s);
    dl->AddCircle(p, 5 * s, to_imcol(colours.warning), 0, 2 * s);
    const std::string label = format(t.compare_crossover, std::string(algorithm_name(crossover.faster)).c_str(),
                                     size_words(crossover.bytes).c_str());
    // Stagger labels so neighbouring crossovers do not overwrite each other.
    const float label_y = plot.y + line * (1.2f + 1.1f * static_cast<float>(c % 3));
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    const float label_x = std::min(p.x + 4, plot.right() - size.x - 2);
    dl->AddRectFilled(ImVec2(label_x - 2, label_y), ImVec2(label_x + size.x + 2, label_y + size.y),
                      to_imcol(colours.view_background, 0.8f), 2);
    dl->AddText(ImVec2(label_x, label_y), to_imcol(colours.warning), label.c_str());
  }

  if (comparison.crossovers.empty()) {
    const std::string only = format(t.compare_no_crossover, std::string(algorithm_name(comparison.sweep_fastest.front())).c_str());
    dl->AddText(ImVec2(plot.x + line * 0.4f, plot.y + line * 0.3f), to_imcol(colours.warning), only.c_str());
  }

  // Legend on the right of the plot.
  float y = plot.y;
  for (Algorithm algorithm : comparison.algorithms) {
    const float x = plot.right() + line * 0.6f;
    dl->AddLine(ImVec2(x, y + line * 0.5f), ImVec2(x + line, y + line * 0.5f), to_imcol(algorithm_colour(algorithm)), 3 * s);
    dl->AddText(ImVec2(x + line * 1.3f, y), to_imcol(algorithm_colour(algorithm)), std::string(algorithm_name(algorithm)).c_str());
    y += line * 1.25f;
  }
  dl->AddText(nullptr, 0, ImVec2(area.x, plot.bottom() + line * 1.2f), to_imcol(colours.text), sentence.c_str(), nullptr, area.w);
}

}  // namespace ringviz::gui
