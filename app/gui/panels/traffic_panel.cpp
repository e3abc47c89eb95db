#include "app/gui/panels/traffic_panel.h"

#include <algorithm>

#include <imgui.h>

#include "core/algorithms/registry.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/table_fit.h"
#include "app/gui/text/strings.h"
#include "app/gui/text/traffic_formula.h"
#include "core/schedule/pipeline.h"

namespace ringviz::gui {

namespace {

// The running algorithm's own formula (text/traffic_formula.*), which the numbers below are
// measured against, and what its M stands for.
void draw_formula(const FrameContext& frame, const Config& config, int n) {
  const UiStrings& t = frame.text();
  const TrafficFormula own =
      traffic_formula(frame.language, config.algorithm, config.op, n, formula_buffer_bytes(config), config.root);
  const bool ring = config.algorithm == Algorithm::ring;
  // The ring's two lines stay as they were drawn where they fit; the other formulas are longer
  // and wrap.
  for (const std::string* line : {&own.formula, &own.values}) {
    if (ring && ImGui::CalcTextSize(line->c_str()).x <= ImGui::GetContentRegionAvail().x)
      ImGui::TextUnformatted(line->c_str());
    else
      ImGui::TextWrapped("%s", line->c_str());
  }
  if (!own.note.empty()) hint_text(own.note.c_str());
  hint_text(config.op == Op::allgather ? t.traffic_m_allgather : t.traffic_m_other);
}

}  // namespace

void TrafficPanel::draw(const Rect& area, const SessionModel& model, const FrameContext& frame, int selected_gpu) {
  const UiStrings& t = frame.text();
  begin_panel(t.traffic_title, area, ImGuiWindowFlags_NoScrollbar);
  const Session& session = model.session();
  const Config& config = model.config();
  const Traffic& traffic = session.traffic();
  const int n = config.ranks;
  const int rounds = session.round_count();
  const int done = frame.moment.rest_round;  // bytes count once they have arrived

  // An uneven AllToAll's GPUs each send another amount: no formula, the measured bytes alone.
  if (uneven_all_to_all(config)) {
    hint_text(t.traffic_uneven);
  } else {
    draw_formula(frame, config, n);
  }
  const bool ring = config.algorithm == Algorithm::ring;
  std::int64_t measured = 0;
  for (int r = 0; r < n; ++r) measured = std::max(measured, traffic.total_sent(r));
  // What the bars fill toward: the formula for the ring, the busiest GPU's total otherwise.
  const double expected = ring ? traffic_formula(frame.language, config.algorithm, config.op, n,
                                                 formula_buffer_bytes(config), config.root).busiest_bytes
                               : static_cast<double>(measured);
  ImGui::Text(t.traffic_measured, format_bytes(static_cast<double>(measured)).c_str());
  // A broadcast sends whole buffers: its formula holds whatever N and the count.
  if (config.op != Op::broadcast && !uneven_all_to_all(config)) hint_text(t.traffic_exact_note);
  // The ring's formula for comparison, where the ring runs the op at all (not AllToAll).
  if (!ring && algorithm_supports(Algorithm::ring, config.op)) {
    const TrafficFormula ring_formula = traffic_formula(frame.language, Algorithm::ring, config.op, n,
                                                        formula_buffer_bytes(config), config.root);
    hint_text(t.traffic_formula_other);
    hint_text((ring_formula.formula + "  " + ring_formula.values).c_str());
  }
  ImGui::Separator();
  // A pipelined schedule's steps are waves (docs/architecture.md, "Rounds and waves, in words").
  const bool pipelined = pipeline_shape_of(model.session().schedule()).pipelined();
  ImGui::Text(pipelined ? t.traffic_after_waves : t.traffic_after, done, rounds);

  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingStretchProp;
  // Only whole rows: a row cut at the panel's bottom edge is cut-off text.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row_height = ImGui::GetFontSize() + 2 * style.CellPadding.y;
  const float table_height = whole_rows_height(ImGui::GetContentRegionAvail().y, row_height, row_height);
  if (ImGui::BeginTable("##traffic", 4, flags, ImVec2(0, table_height))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn(t.traffic_gpu, ImGuiTableColumnFlags_WidthFixed,
                            std::max(ImGui::CalcTextSize("GPU 000").x, ImGui::CalcTextSize(t.traffic_total).x));
    ImGui::TableSetupColumn(t.traffic_sent, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn(t.traffic_received, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("##bar", ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableHeadersRow();

    std::int64_t all_sent = 0, all_received = 0;
    for (int r = 0; r < n; ++r) {
      all_sent += traffic.sent_after(r, done);
      all_received += traffic.received_after(r, done);
    }
    ImGui::TableNextRow(0, row_height);
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(t.traffic_total);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(format_bytes(static_cast<double>(all_sent)).c_str());
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(format_bytes(static_cast<double>(all_received)).c_str());

    ImGuiListClipper clipper;
    clipper.Begin(n, row_height);
    while (clipper.Step()) {
      for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
        const std::int64_t sent = traffic.sent_after(r, done);
        ImGui::TableNextRow(0, row_height);
        if (r == selected_gpu)
          ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, to_imcol(view_colours(frame.theme).selected_border, 0.18f));
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(to_imvec4(rank_colour(r, frame.palette)), "GPU %d", r);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(format_bytes(static_cast<double>(sent)).c_str());
        ImGui::TableSetColumnIndex(2);
        ImGui::TextUnformatted(format_bytes(static_cast<double>(traffic.received_after(r, done))).c_str());
        ImGui::TableSetColumnIndex(3);
        // How far this GPU is toward the formula's total.
        const float fraction = expected > 0 ? static_cast<float>(static_cast<double>(sent) / expected) : 0.0f;
        ImGui::PushStyleColor(ImGuiCol_PlotHistogram, to_imvec4(rank_colour(r, frame.palette)));
        ImGui::ProgressBar(std::clamp(fraction, 0.0f, 1.0f), ImVec2(-1, ImGui::GetTextLineHeight()), "");
        ImGui::PopStyleColor();
      }
    }
    snap_scroll_to_rows(row_height);
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace ringviz::gui
