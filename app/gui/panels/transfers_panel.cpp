#include "app/gui/panels/transfers_panel.h"

#include <algorithm>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "app/gui/testing/item_marks.h"
#include "core/schedule/pipeline.h"

namespace ringviz::gui {

void TransfersPanel::draw(const Rect& area, const SessionModel& model, const FrameContext& frame,
                          int& selected_gpu) {
  const UiStrings& t = ui_strings();
  begin_panel(t.round_table_title, area, ImGuiWindowFlags_NoScrollbar);
  const Session& session = model.session();
  const Config& config = model.config();
  const ViewColours& colours = view_colours(frame.theme);
  const int rounds = session.round_count();
  if (rounds == 0) {
    hint_text(t.table_no_rounds);
    ImGui::End();
    return;
  }
  hint_text(t.table_hint);
  const int current = frame.moment.round;  // 0 before the first round
  const std::size_t element = dtype_size(config.dtype);

  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("##transfers", 6, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // A pipelined wave's transfer is one piece of its slot: the slot is followed by the step
    // (the article's round, the slice, the channel) it belongs to.
    const bool pipelined = session.schedule().channels > 1 || session.schedule().slices > 1;
    const PipelineShape shape{session.schedule().channels, session.schedule().slices};
    ImGui::TableSetupColumn(pipelined ? t.table_wave : t.table_round, ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Round0").x);
    ImGui::TableSetupColumn(t.table_phase, ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize(t.phase_reduce_scatter).x);
    ImGui::TableSetupColumn(t.table_transfer, ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("000 -> 000").x);
    ImGui::TableSetupColumn(t.table_slot, ImGuiTableColumnFlags_WidthFixed,
                            ImGui::CalcTextSize(pipelined ? "00 r00s0c0" : "Slot0").x);
    const char* reduce_kind = t.reduction_kind[static_cast<std::size_t>(model.config().reduce)];
    ImGui::TableSetupColumn(t.table_kind, ImGuiTableColumnFlags_WidthFixed,
                            std::max(ImGui::CalcTextSize("reduce0").x, ImGui::CalcTextSize(reduce_kind).x));
    ImGui::TableSetupColumn(t.table_bytes, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();

    const float row_height = ImGui::GetTextLineHeightWithSpacing();
    // Only the ring has N transfers in every round (naive, direct, rhd and the trees do not):
    // rows are found through each round's first row.
    const auto& schedule_rounds = session.schedule().rounds;
    std::vector<int> first_row_of(static_cast<std::size_t>(rounds) + 1, 0);
    for (int r = 0; r < rounds; ++r)
      first_row_of[static_cast<std::size_t>(r) + 1] =
          first_row_of[static_cast<std::size_t>(r)] + static_cast<int>(schedule_rounds[static_cast<std::size_t>(r)].transfers.size());
    // Keep the current round's rows in view when the round changes (not while the user scrolls).
    if (current != scrolled_round_) {
      const int first_row = first_row_of[static_cast<std::size_t>(std::clamp(current - 1, 0, rounds))];
      ImGui::SetScrollY(std::max(0.0f, (first_row - 1) * row_height));
      scrolled_round_ = current;
    }
    const ImU32 highlight = to_imcol(colours.phase_reduce_scatter, 0.22f);
    const ImU32 highlight_gather = to_imcol(colours.phase_all_gather, 0.22f);
    const ImU32 selected = to_imcol(colours.selected_border, 0.18f);
    ImGuiListClipper clipper;
    clipper.Begin(first_row_of.back(), row_height);
    while (clipper.Step()) {
      for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
        const int round_index =
            static_cast<int>(std::upper_bound(first_row_of.begin(), first_row_of.end(), row) - first_row_of.begin()) - 1;
        const Round& round = schedule_rounds[static_cast<std::size_t>(round_index)];
        const Transfer& transfer = round.transfers[static_cast<std::size_t>(row - first_row_of[static_cast<std::size_t>(round_index)])];
        const Phase phase = pipelined ? session.schedule().round_phases[static_cast<std::size_t>(transfer.step.round)] : round.phase;
        const bool reduce = phase == Phase::reduce_scatter;
        ImGui::TableNextRow(0, row_height);
        if (round_index + 1 == current)
          ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, reduce ? highlight : highlight_gather);
        ImGui::TableSetColumnIndex(0);
        const std::string id = std::to_string(round_index + 1) + "##row" + std::to_string(row);
        if (ImGui::Selectable(id.c_str(), transfer.src == selected_gpu,
                              ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
          selected_gpu = selected_gpu == transfer.src ? kNoSelection : transfer.src;
        mark_last_item("transfers.row." + std::to_string(row) + ".src" + std::to_string(transfer.src));
        if (transfer.src == selected_gpu) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, selected);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextColored(to_imvec4(reduce ? colours.phase_reduce_scatter : colours.phase_all_gather), "%s",
                           reduce ? t.phase_reduce_scatter : t.phase_all_gather);
        ImGui::TableSetColumnIndex(2);
        ImGui::Text("%d -> %d", transfer.src, transfer.dst);
        ImGui::TableSetColumnIndex(3);
        if (pipelined)
          ImGui::Text("%d r%ds%dc%d", transfer.slot, transfer.step.round + 1, transfer.step.slice, transfer.step.channel);
        else
          ImGui::Text("%d", transfer.slot);
        ImGui::TableSetColumnIndex(4);
        ImGui::TextUnformatted(transfer.kind == TransferKind::reduce ? reduce_kind : t.kind_copy);
        ImGui::TableSetColumnIndex(5);
        const double bytes =
            static_cast<double>(transfer_span(transfer, session.layout(), shape).count) * static_cast<double>(element);
        ImGui::TextUnformatted(format_bytes(bytes).c_str());
      }
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace ringviz::gui
