#include "app/gui/panels/transfers_panel.h"

#include <algorithm>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/op_label.h"
#include "app/gui/text/table_fit.h"
#include "app/gui/text/strings.h"
#include "app/gui/inspect/item_marks.h"
#include "core/schedule/pipeline.h"

namespace ringviz::gui {

namespace {

// The widest of `texts` in the current font.
float widest(std::initializer_list<const char*> texts) {
  float width = 0;
  for (const char* text : texts) width = std::max(width, ImGui::CalcTextSize(text).x);
  return width;
}

// A number with as many digits as `largest`, in the widest digit: what a column of such
// numbers needs.
std::string digits_like(std::int64_t largest) { return std::string(std::to_string(std::max<std::int64_t>(0, largest)).size(), '0'); }

bool shape_pipelined(const Schedule& schedule) { return pipeline_shape_of(schedule).pipelined(); }

// The slot column: the slot, and what part of it moves. Pipelined, the step (the source
// article's round, the slice, the channel) and the channel's lane by name where the algorithm
// has lanes ("1 r2s0c1 counter-clockwise"); lock-step with lanes, the lane's half ("1 clockwise
// half"). `lane_of_channel`: the channel whose lane names the part (the widest sample passes the
// last channel, whose lane name is the longest of the bidirectional ring's).
// `slot` as slots_text() writes it.
std::string slot_text(Language language, const SessionModel& model, bool pipelined, const std::string& slot, int round,
                      int slice, int channel, int lane_of_channel) {
  const Schedule& schedule = model.session().schedule();
  const PipelineShape shape = pipeline_shape_of(schedule);
  const std::string lane =
      shape.lanes > 1 ? lane_name(language, model.config().algorithm, shape.lane_of({lane_of_channel, 0, 0})) : std::string();
  if (pipelined) {
    std::string text = format("%s r%ds%dc%d", slot.c_str(), round, slice, channel);
    return lane.empty() ? text : text + " " + lane;
  }
  return lane.empty() ? slot : format(ui_strings_for(language).table_slot_lane, slot.c_str(), lane.c_str());
}

// The slot a transfer writes, or "3 -> 0" where it reads another one (AllToAll: GPU 0's slot 3
// lands in GPU 3's slot 0); an uneven AllToAll's slot with its pair, "5 (1->2)".
std::string slots_text(const Config& config, int source_slot, int slot) {
  if (uneven_all_to_all(config))
    return std::to_string(slot) + " (" + std::to_string(slot / config.ranks) + "->" +
           std::to_string(slot % config.ranks) + ")";
  return source_slot == slot ? std::to_string(slot) : std::to_string(source_slot) + " -> " + std::to_string(slot);
}

}  // namespace

std::vector<bool> TransfersPanel::kept_columns(Language language, const SessionModel& model, bool pipelined,
                                               const char* reduce_kind) {
  const UiStrings& t = ui_strings_for(language);
  const Session& session = model.session();
  const Schedule& schedule = session.schedule();
  if (widest_bytes_generation_ != model.generation()) {
    // The largest transfer prints the widest byte count; found once per configuration.
    const PipelineShape shape = pipeline_shape_of(schedule);
    std::int64_t largest = 0;
    for (const Round& round : schedule.rounds)
      for (const Transfer& transfer : round.transfers)
        largest = std::max(largest, transfer_span(transfer, session.layout(), shape).count);
    widest_bytes_ = format_bytes(static_cast<double>(largest) * static_cast<double>(dtype_size(model.config().dtype)));
    widest_bytes_generation_ = model.generation();
  }
  const int n = model.config().ranks;
  const std::string rounds = digits_like(session.round_count());
  const std::string gpu = digits_like(n - 1);
  const std::string send = gpu + " -> " + gpu;
  const Config& config = model.config();
  const std::string widest_slots = uneven_all_to_all(config) ? slots_text(config, 0, n * n - 1)
                                   : config.op == Op::alltoall ? slots_text(config, n - 1, n - 1 == 0 ? 0 : n - 2)
                                                               : std::to_string(n - 1);
  const std::string slot = slot_text(language, model, pipelined, widest_slots, session.round_count(), schedule.slices - 1,
                                     schedule.channels - 1, schedule.channels - 1);
  column_widths_ = {
      widest({pipelined ? t.table_wave : t.table_round, rounds.c_str()}),
      widest({t.table_phase, t.phase_reduce_scatter, t.phase_all_gather, t.phase_broadcast, t.phase_all_to_all}),
      widest({t.table_transfer, send.c_str()}),
      widest({t.table_slot, slot.c_str()}),
      widest({t.table_kind, reduce_kind, t.kind_copy}),
      widest({t.table_bytes, widest_bytes_.c_str()}),
  };
  // The phase goes first (the row's colour still says it), then the kind (a reduce-scatter
  // round reduces, an all-gather round copies), then the bytes (the traffic panel counts them).
  constexpr int kDropRank[kColumns] = {0, 3, 0, 0, 2, 1};
  std::vector<ColumnNeed> needs;
  for (int c = 0; c < kColumns; ++c) needs.push_back({column_widths_[static_cast<std::size_t>(c)], kDropRank[c]});
  const ImGuiStyle& style = ImGui::GetStyle();
  const float available = ImGui::GetContentRegionAvail().x - style.ScrollbarSize;
  return columns_that_fit(needs, 2 * style.CellPadding.x + 1.0f, available);
}

void TransfersPanel::draw(const Rect& area, const SessionModel& model, const FrameContext& frame,
                          int& selected_gpu) {
  const UiStrings& t = frame.text();
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
  // A pipelined wave's transfer is one piece of its slot: the slot is followed by the step
  // (the source article's round, the slice, the channel) it belongs to.
  const bool pipelined = shape_pipelined(session.schedule());
  const PipelineShape shape = pipeline_shape_of(session.schedule());
  const char* reduce_kind = t.reduction_kind[static_cast<std::size_t>(model.config().reduce)];
  const std::vector<bool> kept = kept_columns(frame.language, model, pipelined, reduce_kind);
  // A column that gives way leaves its phase in the colour of the first column still drawn.
  int phase_ink_column = -1;
  for (int c : {kPhase, kKind, kSend})
    if (phase_ink_column < 0 && kept[static_cast<std::size_t>(c)]) phase_ink_column = c;
  // Only whole rows: a row cut at the panel's bottom edge is cut-off text.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row_height = std::max(ImGui::GetTextLineHeightWithSpacing(), ImGui::GetFontSize() + 2 * style.CellPadding.y);
  const float header_height = ImGui::GetFontSize() + 2 * style.CellPadding.y;
  const float table_height = whole_rows_height(ImGui::GetContentRegionAvail().y, header_height, row_height);
  int shown_columns = 0;
  for (bool keep : kept) shown_columns += keep ? 1 : 0;
  if (ImGui::BeginTable("##transfers", shown_columns, flags, ImVec2(0, table_height))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    const char* headers[kColumns] = {pipelined ? t.table_wave : t.table_round, t.table_phase, t.table_transfer,
                                     t.table_slot, t.table_kind, t.table_bytes};
    for (int c = 0; c < kColumns; ++c) {
      if (!kept[static_cast<std::size_t>(c)]) continue;
      // Weighted by content width: the room left over is shared out, and no column is
      // narrower than its content (the kept columns fit).
      ImGui::TableSetupColumn(headers[c], ImGuiTableColumnFlags_WidthStretch,
                              std::max(1.0f, column_widths_[static_cast<std::size_t>(c)]));
    }
    ImGui::TableHeadersRow();
    // Moves to column `c` of the full table; false when that column is not drawn.
    auto column = [&](int c) {
      if (!kept[static_cast<std::size_t>(c)]) return false;
      int index = 0;
      for (int before = 0; before < c; ++before) index += kept[static_cast<std::size_t>(before)] ? 1 : 0;
      ImGui::TableSetColumnIndex(index);
      return true;
    };

    // Only the ring has N transfers in every round (naive, direct, rhd and the trees do not):
    // rows are found through each round's first row.
    const auto& schedule_rounds = session.schedule().rounds;
    std::vector<int> first_row_of(static_cast<std::size_t>(rounds) + 1, 0);
    for (int r = 0; r < rounds; ++r)
      first_row_of[static_cast<std::size_t>(r) + 1] =
          first_row_of[static_cast<std::size_t>(r)] + static_cast<int>(schedule_rounds[static_cast<std::size_t>(r)].transfers.size());
    // Keep the current round's rows in view when the round changes (not while the user scrolls).
    const bool following = current != scrolled_round_;
    if (following) {
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
        const Rgb phase_colour = reduce ? colours.phase_reduce_scatter : colours.phase_all_gather;
        auto phase_ink = [&](int c) {
          if (c == phase_ink_column) ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(phase_colour));
        };
        auto end_phase_ink = [&](int c) {
          if (c == phase_ink_column) ImGui::PopStyleColor();
        };
        column(kRound);
        const std::string id = std::to_string(round_index + 1) + "##row" + std::to_string(row);
        if (ImGui::Selectable(id.c_str(), transfer.src == selected_gpu,
                              ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
          selected_gpu = selected_gpu == transfer.src ? kNoSelection : transfer.src;
        mark_last_item("transfers.row." + std::to_string(row) + ".src" + std::to_string(transfer.src));
        if (transfer.src == selected_gpu) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, selected);
        if (column(kPhase)) {
          phase_ink(kPhase);
          ImGui::TextUnformatted(reduce                           ? t.phase_reduce_scatter
                                 : phase == Phase::broadcast  ? t.phase_broadcast
                                 : phase == Phase::all_to_all ? t.phase_all_to_all
                                                              : t.phase_all_gather);
          end_phase_ink(kPhase);
        }
        column(kSend);
        phase_ink(kSend);
        ImGui::Text("%d -> %d", transfer.src, transfer.dst);
        end_phase_ink(kSend);
        column(kSlot);
        ImGui::TextUnformatted(slot_text(frame.language, model, pipelined, slots_text(model.config(), transfer.source_slot(), transfer.slot),
                                         transfer.step.round + 1, transfer.step.slice, transfer.step.channel,
                                         transfer.step.channel)
                                   .c_str());
        if (column(kKind)) {
          phase_ink(kKind);
          ImGui::TextUnformatted(transfer.kind == TransferKind::reduce ? reduce_kind : t.kind_copy);
          end_phase_ink(kKind);
        }
        if (column(kBytes)) {
          const double bytes =
              static_cast<double>(transfer_span(transfer, session.layout(), shape).count) * static_cast<double>(element);
          ImGui::TextUnformatted(format_bytes(bytes).c_str());
        }
      }
    }
    if (!following) snap_scroll_to_rows(row_height);
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace ringviz::gui
