#include "app/gui/views/compare_view.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "core/algorithms/registry.h"
#include "app/gui/compare/compare_sentence.h"
#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/plots/plot_axes.h"
#include "app/gui/views/too_small_notice.h"
#include "app/gui/plots/view_text.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/views/link_view.h"
#include "app/gui/text/strings.h"
#include "app/gui/text/table_fit.h"
#include "core/engine/session.h"
#include "core/model/input_error.h"
#include "core/nccl/nccl_text.h"
#include "core/schedule/bus_bandwidth.h"

namespace ringviz::gui {

Rgb algorithm_colour(Algorithm algorithm) {
  const auto& [r, g, b] = algorithm_unit(algorithm).chart_colour;
  return {r, g, b};
}

std::string format_seconds(double seconds) {
  const double a = std::fabs(seconds);
  if (a < 1e-6) return format("%.0f ns", seconds * 1e9);
  if (a < 1e-3) return format("%.3g us", seconds * 1e6);
  if (a < 1) return format("%.3g ms", seconds * 1e3);
  return format("%.3g s", seconds);
}


void CompareView::set_link(const std::string& key) {
  for (const LinkModel& link : link_presets())
    if (link.key == key) link_key_ = key;
}

void CompareView::set_topology(const std::string& text) {
  const std::string kind = topology_kind_of(text);
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
  return comparison_sentence(*answer_->comparison, text());
}

std::string CompareView::nccl_line() const {
  if (answer_ == nullptr || !answer_->comparison) return {};
  const CostComparison& comparison = *answer_->comparison;
  const Config& config = comparison.config;
  if (!nccl_models(config.op) || config.ranks < 2) return {};
  // NCCL's own channels unless the setup panel asks for more than one.
  const NcclMachine machine = nccl_machine(comparison.topology, config.channels > 1 ? config.channels : 0);
  const NcclPrediction choice =
      nccl_choose(machine, config.op, nccl_tests_size_bytes(config.op, config.count, config.dtype, config.ranks));
  return format(text().compare_nccl_line, nccl_pair_text(choice).c_str(), choice.channels,
                nccl_time_text(choice.seconds).c_str(), format("%.4g", choice.busbw / 1e9).c_str());
}

namespace {

// The table's columns, in the order shown; when the width is short they are left out in
// kColumnsDropped's order (Algorithm and Predicted always stay).
enum Column { kAlgorithm, kRounds, kMessages, kSent, kBusiest, kTime, kColumnCount };
constexpr Column kColumnsDropped[] = {kMessages, kSent, kRounds, kBusiest};

}  // namespace

std::string CompareView::shown_topology_name(const TopologyChoice& choice, int gpus) const {
  return choice.is_star() ? std::string(text().compare_topology_star) : choice.spec_for_gpus(gpus);
}

std::string CompareView::selector_words() const {
  const UiStrings& t = text();
  if (topology_.is_star()) {
    const LinkModel& link = find_link_preset(link_key_);
    return format(t.compare_link_figures, link.alpha_seconds * 1e6, link.bytes_per_second / 1e9);
  }
  if (answer_ && answer_->comparison) return topology_label_text(answer_->comparison->topology, language_);  // in the UI language
  return {};
}

std::vector<float> CompareView::selector_widths() const {
  const UiStrings& t = text();
  const float line = ImGui::GetTextLineHeight();
  std::vector<float> widths{labelled_width(std::round(line * 9), t.compare_topology)};
  if (topology_.is_star()) widths.push_back(link_combo_width());
  const std::string words = selector_words();
  if (!words.empty()) widths.push_back(ImGui::CalcTextSize(words.c_str()).x);
  return widths;
}

float CompareView::link_combo_width() const {
  const float line = ImGui::GetTextLineHeight();
  const LinkModel& link = find_link_preset(link_key_);
  // Wide enough for the link's whole name ("NVLink 4 (H100/H200)" was cut at 12 lines).
  return std::round(std::max(line * 12, ImGui::CalcTextSize(link.label.c_str()).x + ImGui::GetFrameHeight() +
                                            ImGui::GetStyle().FramePadding.x * 2));
}

float CompareView::selector_height(float width) const {
  const std::vector<float> widths = selector_widths();
  const float row = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.y;
  // The words wrap under the combos when wider than the column.
  const std::string words = selector_words();
  if (!words.empty() && widths.back() > width) {
    std::vector<float> combos(widths.begin(), widths.end() - 1);
    return flow_rows(combos, width) * row + wrap_text(words, width).height() + ImGui::GetStyle().ItemSpacing.y;
  }
  return flow_rows(widths, width) * row;
}

void CompareView::draw_machine_selector(const Config& config, float width) {
  const UiStrings& t = text();
  const float line = ImGui::GetTextLineHeight();
  const std::vector<float> widths = selector_widths();
  ControlFlow flow(ImGui::GetCursorScreenPos().x + width);
  // The kinds, each at the setup panel's GPU count; the star keeps the link selector.
  flow.next(widths[0]);
  ImGui::SetNextItemWidth(std::round(line * 9));
  if (ImGui::BeginCombo(t.compare_topology, shown_topology_name(topology_, config.ranks).c_str())) {
    for (const std::string& kind : topology_kinds()) {
      const TopologyChoice option{kind};
      if (ImGui::Selectable(shown_topology_name(option, config.ranks).c_str(), kind == topology_.kind)) topology_ = option;
    }
    ImGui::EndCombo();
  }
  const bool star = topology_.is_star();
  if (star) {
    flow.next(widths[1]);
    const LinkModel& link = find_link_preset(link_key_);
    ImGui::SetNextItemWidth(link_combo_width());
    if (ImGui::BeginCombo("##link", link.label.c_str())) {
      for (const LinkModel& option : link_presets())
        if (ImGui::Selectable(option.label.c_str(), option.key == link_key_)) link_key_ = option.key;
      ImGui::EndCombo();
    }
  }
  const std::string words = selector_words();
  if (words.empty()) return;
  const float words_w = ImGui::CalcTextSize(words.c_str()).x;
  if (words_w <= width) {
    flow.next(words_w);
    ImGui::TextDisabled("%s", words.c_str());
  } else {
    paragraph(words, width, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  }
  if (star && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", link_note_text(find_link_preset(link_key_), language_).c_str());
}

CompareView::TableCells CompareView::table_cells(const CostComparison& comparison) const {
  const UiStrings& t = text();
  TableCells cells;
  cells.headers = {t.compare_algorithm, t.compare_rounds, t.compare_messages, t.compare_sent, t.compare_busiest, t.compare_time};
  double fastest = 1e300;
  for (const CostEstimate& estimate : comparison.at_count) fastest = std::min(fastest, estimate.seconds);
  for (std::size_t i = 0; i < comparison.algorithms.size(); ++i) {
    const CostEstimate& estimate = comparison.at_count[i];
    const bool best = estimate.seconds <= fastest * (1 + 1e-6);
    cells.rows.push_back({std::string(algorithm_name(comparison.algorithms[i])), std::to_string(estimate.rounds),
                          std::to_string(static_cast<long long>(estimate.messages)),
                          format_bytes(static_cast<double>(estimate.max_bytes_sent)),
                          format(estimate.busiest_link_inbound ? t.compare_link_in : t.compare_link_out,
                                 format_bytes(static_cast<double>(estimate.busiest_link_bytes)).c_str(),
                                 estimate.busiest_link_rank),
                          format_seconds(estimate.seconds) + (best ? " *" : "")});
    cells.best.push_back(best);
  }
  // Each column as wide as its widest text, so no header or cell is shortened.
  for (int c = 0; c < kColumnCount; ++c) {
    float widest = ImGui::CalcTextSize(cells.headers[static_cast<std::size_t>(c)].c_str()).x;
    for (const auto& row : cells.rows) widest = std::max(widest, ImGui::CalcTextSize(row[static_cast<std::size_t>(c)].c_str()).x);
    cells.widths[static_cast<std::size_t>(c)] = std::ceil(widest);
  }
  return cells;
}

std::vector<int> CompareView::shown_columns(const TableCells& cells, float width) {
  std::vector<ColumnNeed> needs;
  for (int c = 0; c < kColumnCount; ++c) {
    int rank = 0;  // the algorithm and its time never give way
    for (int k = 0; k < static_cast<int>(std::size(kColumnsDropped)); ++k)
      if (kColumnsDropped[k] == c) rank = static_cast<int>(std::size(kColumnsDropped)) - k;
    needs.push_back({cells.widths[static_cast<std::size_t>(c)], rank});
  }
  // Per column: its padding on both sides and the border between columns.
  const float per_column = ImGui::GetStyle().CellPadding.x * 2 + 1;
  const std::vector<bool> kept = ringviz::gui::columns_that_fit(needs, per_column, width);
  std::vector<int> columns;
  float used = 0;
  for (int c = 0; c < kColumnCount; ++c)
    if (kept[static_cast<std::size_t>(c)]) {
      columns.push_back(c);
      used += needs[static_cast<std::size_t>(c)].width + per_column;
    }
  if (used > width) columns.clear();  // not even the algorithm and its time
  return columns;
}

float CompareView::table_row_height() {
  // As the side panels' tables measure a row (one line and its padding or spacing).
  const ImGuiStyle& style = ImGui::GetStyle();
  return std::max(ImGui::GetTextLineHeightWithSpacing(), ImGui::GetFontSize() + 2 * style.CellPadding.y);
}

void CompareView::draw_table(const CostComparison& comparison, const TableCells& cells, const std::vector<int>& columns,
                             int visible_rows, const Config& current, const ViewContext& context, float width) {
  const bool scroll = visible_rows < static_cast<int>(cells.rows.size());
  ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (scroll) flags |= ImGuiTableFlags_ScrollY;
  // Scrolling: the header and exactly `visible_rows` whole rows, scrolled by whole rows, so no
  // row shows cut in half.
  const float header = ImGui::GetFontSize() + 2 * ImGui::GetStyle().CellPadding.y;
  const float height = scroll ? header + table_row_height() * static_cast<float>(visible_rows) : 0.0f;
  if (!ImGui::BeginTable("##compare", static_cast<int>(columns.size()), flags, ImVec2(width, height))) return;
  // The width left over is shared out, so the table spans its column.
  float used = 0;
  for (int c : columns) used += cells.widths[static_cast<std::size_t>(c)] + ImGui::GetStyle().CellPadding.x * 2 + 1;
  const float share = std::max(0.0f, std::floor((width - used) / static_cast<float>(columns.size())));
  for (int c : columns)
    ImGui::TableSetupColumn(cells.headers[static_cast<std::size_t>(c)].c_str(), ImGuiTableColumnFlags_WidthFixed,
                            cells.widths[static_cast<std::size_t>(c)] + share);
  if (scroll) ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableHeadersRow();
  // The fastest at this size gets a mark; the algorithm of the setup panel is selected.
  for (std::size_t i = 0; i < comparison.algorithms.size(); ++i) {
    const Algorithm algorithm = comparison.algorithms[i];
    ImGui::TableNextRow();
    for (std::size_t k = 0; k < columns.size(); ++k) {
      ImGui::TableSetColumnIndex(static_cast<int>(k));
      const int c = columns[k];
      const std::string& text = cells.rows[i][static_cast<std::size_t>(c)];
      if (c == kAlgorithm) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(algorithm_colour(algorithm)));
        const bool selected = algorithm == current.algorithm;
        if (ImGui::Selectable(text.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns) && !selected &&
            context.choose_algorithm)
          context.choose_algorithm(algorithm);
        ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(cost_formula(algorithm, current.op)).c_str());
      } else if (c == kTime && cells.best[i]) {
        ImGui::TextColored(ImVec4(0.4f, 0.85f, 0.5f, 1), "%s", text.c_str());
      } else {
        ImGui::TextUnformatted(text.c_str());
      }
    }
  }
  if (scroll) snap_scroll_to_rows(table_row_height());
  ImGui::EndTable();
}

CompareView::PlotTexts CompareView::measure_plot(const CostComparison& comparison, float width, float plot_lines) const {
  const UiStrings& t = text();
  const float line = ImGui::GetTextLineHeight();
  PlotTexts m;
  m.title = wrap_text(t.compare_plot_title, width);
  // Said from the data drawn above it, so it cannot contradict the plot.
  m.sentence = wrap_text(comparison_sentence(comparison, t), width);
  m.x_row_h = line * 0.15f + line_pitch("1 KiB");
  m.legend_entry_w = 0;
  for (Algorithm algorithm : comparison.algorithms)
    m.legend_entry_w = std::max(m.legend_entry_w, ImGui::CalcTextSize(std::string(algorithm_name(algorithm)).c_str()).x);
  m.legend_entry_w = std::ceil(m.legend_entry_w + line * 1.9f);
  m.legend_pitch = std::max(line * 1.25f, line_pitch("ring"));
  m.min_h = m.title.height() + line * 0.6f + plot_lines * line + m.x_row_h + line * 0.3f + m.sentence.height();
  return m;
}

void CompareView::draw(const Rect& area, const ViewContext& context) {
  language_ = context.language;
  const UiStrings& t = text();
  const ViewColours& colours = view_colours(context.theme);
  ImDrawList* dl = begin_view_window("##compare_view", area, colours);
  if (context.session == nullptr) {
    ImGui::End();
    return;
  }
  const Config& config = context.session->config();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight();
  const float pad = std::round(line * 0.5f);
  const float top = ImGui::GetCursorScreenPos().y;
  const float available = area.bottom() - pad - top;
  const std::int64_t message = config.count * static_cast<std::int64_t>(dtype_size(config.dtype));
  const std::string question = format(t.compare_question, std::string(op_name(config.op)).c_str(),
                                      static_cast<long long>(config.count), std::string(dtype_name(config.dtype)).c_str(),
                                      format_bytes(static_cast<double>(message)).c_str(), config.ranks);
  const ComparisonAnswer* answer = answer_for(config, context.wait_for_answers);
  const CostComparison* comparison = answer && answer->comparison ? &*answer->comparison : nullptr;

  // Left: the question, the machine, the table and the plot. Right: the link view. What the
  // view gives up when the height is short, first to last: the table's hint and the machine
  // selector (presentation mode only: in the window its controls wrap onto more rows) while
  // the plot is less than kGoodPlotLines high; then the link view (its width goes to the table
  // and the plot; also whenever the left column would be narrower than kMinColumnLines) and
  // whole table rows (the table scrolls, three rows at least) while it is less than
  // kMinPlotLines. Table columns that do not fit the width are left out
  // (kColumnsDropped). Then the line saying what NCCL would do, and if the plot still lacks its
  // least height, a notice instead of the table and the plot.
  const float right_full = std::round(std::clamp(area.w * 0.36f, line * 16, line * 30));
  bool link_view = true, selector = true, hint = true;
  int visible_rows = 0;
  TableCells cells;
  if (comparison) cells = table_cells(*comparison);
  std::string nccl = nccl_line();
  bool nccl_shown = true;
  const int rows = static_cast<int>(cells.rows.size());
  // From where the window's widgets start to the link view's gap, or to the window's padding.
  const float content_left = ImGui::GetCursorScreenPos().x;
  auto column_width = [&] {
    return (link_view ? area.right() - right_full - pad : area.right() - style.WindowPadding.x) - content_left;
  };
  auto needed = [&](float plot_lines) {
    const float width = column_width();
    float h = wrap_text(question, width).height() + style.ItemSpacing.y;
    if (selector) h += selector_height(width) + style.ItemSpacing.y;
    if (!comparison) return h;
    if (nccl_shown && !nccl.empty()) h += wrap_text(nccl, width).height() + style.ItemSpacing.y;
    h += table_row_height() * static_cast<float>(visible_rows + 1) + style.ItemSpacing.y;
    if (hint) h += wrap_text(t.compare_table_hint, width).height() + style.ItemSpacing.y;
    return h + pad * 0.5f + measure_plot(*comparison, width, plot_lines).min_h;
  };
  visible_rows = rows;
  if (hint && needed(kGoodPlotLines) > available) hint = false;
  if (context.presentation && needed(kGoodPlotLines) > available) selector = false;
  if (needed(kMinPlotLines) > available || column_width() < line * kMinColumnLines) link_view = false;
  while (visible_rows > std::min(rows, 3) && needed(kMinPlotLines) > available) --visible_rows;
  if (needed(kMinPlotLines) > available) nccl_shown = false;

  const float right_w = link_view ? right_full : 0.0f;
  const Rect left{area.x, area.y, area.w - right_w, area.h};
  const float width = column_width();
  paragraph(question, width, ImGui::GetColorU32(ImGuiCol_Text));
  if (selector) {
    draw_machine_selector(config, width);
    // The selector may have changed the question: ask again, so this frame shows its answer or
    // "computing...", never the old machine's figures under the new machine's name.
    answer = answer_for(config, context.wait_for_answers);
    comparison = answer && answer->comparison ? &*answer->comparison : nullptr;
    if (comparison) cells = table_cells(*comparison);
    visible_rows = std::min(visible_rows, static_cast<int>(cells.rows.size()));
    nccl = nccl_line();
  }

  LinkViewInput link_input;
  if (answer == nullptr) {
    ImGui::TextDisabled("%s", t.compare_computing);
  } else if (!comparison) {
    paragraph(answer->error, width, ImGui::GetColorU32(ImGuiCol_Text));
  } else {
    link_input = {comparison, &*answer->routes};
    // What NCCL itself would run, above ringviz's simulated algorithms.
    if (nccl_shown && !nccl.empty()) paragraph(nccl, width, to_imcol(colours.text));
    const std::vector<int> columns = shown_columns(cells, width);
    const float plot_top = ImGui::GetCursorScreenPos().y + (columns.empty() ? 0.0f : table_row_height() * static_cast<float>(visible_rows + 1)) +
                           style.ItemSpacing.y + (hint ? wrap_text(t.compare_table_hint, width).height() + style.ItemSpacing.y : 0.0f) +
                           pad * 0.5f;
    const Rect plot_area{content_left, plot_top, width, std::max(0.0f, left.bottom() - pad - plot_top)};
    const PlotTexts m = measure_plot(*comparison, width, kMinPlotLines);
    if (columns.empty() || m.min_h > plot_area.h) {
      const float notice_top = ImGui::GetCursorScreenPos().y;
      draw_centred_notice(dl, {content_left, notice_top, width, std::max(0.0f, left.bottom() - pad - notice_top)},
                          t.compare_too_small);
    } else {
      draw_table(*comparison, cells, columns, visible_rows, config, context, width);
      if (hint) paragraph(t.compare_table_hint, width, ImGui::GetColorU32(ImGuiCol_TextDisabled));
      // Below what was drawn, not what was estimated.
      const float drawn_top = ImGui::GetCursorScreenPos().y + pad * 0.5f;
      draw_plot(dl, {plot_area.x, drawn_top, plot_area.w, std::max(0.0f, left.bottom() - pad - drawn_top)}, m, *comparison,
                config, context, visible_rows == static_cast<int>(cells.rows.size()));
    }
  }

  if (link_view) {
    const Rect right{left.right() + pad, area.y + pad, right_w - 2 * pad, area.h - 2 * pad};
    dl->AddLine(ImVec2(left.right(), area.y + pad), ImVec2(left.right(), area.bottom() - pad), to_imcol(colours.box_border));
    draw_link_view(dl, right, context, link_input);
  }
  ImGui::End();
}

void CompareView::draw_plot(ImDrawList* dl, const Rect& area, const PlotTexts& m, const CostComparison& comparison,
                            const Config& current, const ViewContext& context, bool table_names_all) {
  const UiStrings& t = text();
  if (comparison.sweep_bytes.size() < 2) return;
  const ViewColours& colours = view_colours(context.theme);
  const float line = ImGui::GetTextLineHeight();
  const float s = context.scale;
  const ImU32 muted = to_imcol(colours.muted_text);
  TextBoard board(area);
  board.place(dl, ImVec2(area.x, area.y), to_imcol(colours.text), m.title);

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

  std::vector<AxisLabel> y_labels;
  for (double e = y0; e <= y1 + 1e-9; e += 1) y_labels.push_back({0, format_seconds(std::pow(10.0, e))});
  const float gutter = std::round(widest_label(y_labels) + line * 0.4f);
  const float plot_top = area.y + m.title.height() + line * 0.6f;
  const float plot_h = std::max(0.0f, area.bottom() - m.sentence.height() - line * 0.3f - m.x_row_h - plot_top);
  // The legend beside the plot, in as many columns as its height needs.
  // Where it would need more columns than one, or more than a third of the width, and the table
  // shows every algorithm, it is left out: the table's names are in the lines' colours, and the
  // plot keeps its width.
  const int per_column = std::max(1, static_cast<int>(std::floor(plot_h / m.legend_pitch)));
  const int legend_columns = (static_cast<int>(comparison.algorithms.size()) + per_column - 1) / per_column;
  const bool legend = (legend_columns == 1 && m.legend_entry_w <= area.w / 3) || !table_names_all;
  const float legend_w = legend ? m.legend_entry_w * static_cast<float>(legend_columns) + line * 0.6f : 0.0f;
  const Rect plot{area.x + gutter, plot_top, std::max(line, area.w - gutter - legend_w), plot_h};
  dl->AddRectFilled(to_imvec(plot.min()), to_imvec(plot.max()), to_imcol(colours.box_background, 0.5f));
  auto x_of = [&](double bytes) { return plot.x + static_cast<float>((std::log2(bytes) - x0) / (x1 - x0)) * plot.w; };
  auto y_of = [&](double seconds) {
    return plot.bottom() - static_cast<float>((std::log10(seconds) - y0) / (y1 - y0)) * plot.h;
  };

  // A grid line every decade of time, labelled as often as the labels fit.
  const int decades = static_cast<int>(std::lround(y1 - y0));
  const int y_stride = label_stride(plot.h / static_cast<float>(std::max(1, decades)), line * 1.15f);
  std::vector<AxisLabel> y_shown;
  for (int k = 0; k <= decades; ++k) {
    const float y = std::round(y_of(std::pow(10.0, y0 + k)));
    dl->AddLine(ImVec2(plot.x, y), ImVec2(plot.right(), y), to_imcol(colours.box_border, 0.45f));
    if (k % y_stride == 0) y_shown.push_back({y, y_labels[static_cast<std::size_t>(k)].text});
  }
  draw_y_labels(dl, board, plot, line * 0.3f, y_shown, muted);
  // A grid line every doubling of size, labelled every k-th doubling from 1 KiB, with k the
  // smallest of 1, 2, 4, 5, 10, 20 that keeps the labels apart.
  float widest_x = 0;
  for (double e = std::ceil(x0); e <= x1 + 1e-9; e += 1)
    widest_x = std::max(widest_x, ImGui::CalcTextSize(size_words(static_cast<std::int64_t>(std::pow(2.0, e))).c_str()).x);
  const float per_doubling = plot.w / static_cast<float>(std::max(1.0, x1 - x0));
  int x_stride = 20;
  for (int k : {1, 2, 4, 5, 10, 20})
    if (per_doubling * static_cast<float>(k) >= widest_x + line) {
      x_stride = k;
      break;
    }
  std::vector<AxisLabel> x_shown;
  for (double e = std::ceil(x0); e <= x1 + 1e-9; e += 1) {
    const float x = std::round(x_of(std::pow(2.0, e)));
    const bool labelled = static_cast<long long>(e - std::ceil(x0)) % x_stride == 0;
    dl->AddLine(ImVec2(x, plot.y), ImVec2(x, plot.bottom()), to_imcol(colours.box_border, labelled ? 0.45f : 0.18f));
    if (labelled) x_shown.push_back({x, size_words(static_cast<std::int64_t>(std::pow(2.0, e)))});
  }
  draw_x_labels(dl, board, plot, plot.bottom() + line * 0.15f, x_shown, muted);

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

  // Labels inside the plot go on rows from its top down; one is drawn on the first row where it
  // touches no other text, or left out.
  const TextBoard inside_bounds(plot);
  auto place_inside = [&](float x, float width, float first_y, float step, ImU32 colour, const std::string& text,
                          bool backed) {
    x = std::clamp(x, plot.x + 2, std::max(plot.x + 2, plot.right() - width - 2));
    for (float y = first_y; y + line <= plot.bottom(); y += step) {
      const Rect box = text_box(ImVec2(x, y), text);
      if (!inside_bounds.free(box) || !board.free(box)) continue;
      if (backed)
        dl->AddRectFilled(ImVec2(box.x - 2, box.y), ImVec2(box.right() + 2, box.bottom()), to_imcol(colours.view_background, 0.8f), 2);
      board.place(dl, ImVec2(x, y), colour, text);
      return;
    }
  };

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
    place_inside(p.x + 4, ImGui::CalcTextSize(label.c_str()).x, plot.y + line * 0.2f, line * 1.1f, to_imcol(colours.warning),
                 label, true);
  }
  if (comparison.crossovers.empty()) {
    const std::string only = format(t.compare_no_crossover, std::string(algorithm_name(comparison.sweep_fastest.front())).c_str());
    const WrappedText wrapped = wrap_text(only, plot.w - line * 0.8f);
    board.place(dl, ImVec2(plot.x + line * 0.4f, plot.y + line * 0.3f), to_imcol(colours.warning), wrapped);
  }

  // The setup panel's message size.
  const double message = static_cast<double>(current.count) * static_cast<double>(dtype_size(current.dtype));
  if (message >= comparison.sweep_bytes.front() && message <= comparison.sweep_bytes.back()) {
    const float x = std::round(x_of(message));
    dashed_line(dl, ImVec2(x, plot.y), ImVec2(x, plot.bottom()), to_imcol(colours.text, 0.7f), std::max(1.0f, s), 4 * s, 3 * s);
    const Rect box = text_box(ImVec2(x + 3, plot.bottom() - line * 1.2f), t.compare_this_size);
    if (inside_bounds.free(box)) board.place(dl, ImVec2(x + 3, plot.bottom() - line * 1.2f), to_imcol(colours.text, 0.8f), t.compare_this_size);
  }

  // The legend on the right of the plot.
  for (std::size_t i = 0; legend && i < comparison.algorithms.size(); ++i) {
    const Algorithm algorithm = comparison.algorithms[i];
    const float x = plot.right() + line * 0.6f + m.legend_entry_w * static_cast<float>(static_cast<int>(i) / per_column);
    const float y = plot.y + m.legend_pitch * static_cast<float>(static_cast<int>(i) % per_column);
    dl->AddLine(ImVec2(x, y + line * 0.5f), ImVec2(x + line, y + line * 0.5f), to_imcol(algorithm_colour(algorithm)), 3 * s);
    board.place(dl, ImVec2(x + line * 1.3f, y), to_imcol(algorithm_colour(algorithm)), std::string(algorithm_name(algorithm)));
  }
  board.place(dl, ImVec2(area.x, plot.bottom() + m.x_row_h + line * 0.3f), to_imcol(colours.text), m.sentence);
}

}  // namespace ringviz::gui
