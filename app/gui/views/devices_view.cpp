#include "app/gui/views/devices_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/views/link_view.h"
#include "core/schedule/pipeline.h"

namespace ringviz::gui {

namespace {

// A child region of the view at `r`, scrolling when its lines do not fit. Pair with EndChild.
void begin_region(const char* id, const Rect& r) {
  ImGui::SetCursorScreenPos(ImVec2(r.x, r.y));
  ImGui::BeginChild(id, ImVec2(std::max(1.0f, r.w), std::max(1.0f, r.h)), false,
                    ImGuiWindowFlags_AlwaysUseWindowPadding);
}

void draw_devices_table(const PlacementReport& report, const UiStrings& t) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##devices", 4, flags)) return;
  ImGui::TableSetupColumn(t.devices_column_device, ImGuiTableColumnFlags_WidthStretch, 0.6f);
  ImGui::TableSetupColumn(t.devices_column_name, ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn(t.devices_column_ringviz, ImGuiTableColumnFlags_WidthStretch, 0.7f);
  ImGui::TableSetupColumn(t.devices_column_used, ImGuiTableColumnFlags_WidthStretch, 1.1f);
  ImGui::TableHeadersRow();
  for (const DeviceDescription& device : report.devices) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text(t.devices_device, device.index);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(device.name.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_bytes(static_cast<double>(device.bytes_used_by_ringviz)).c_str());
    ImGui::TableNextColumn();
    ImGui::Text(t.devices_used_of_total, format_bytes(static_cast<double>(device.bytes_used_all)).c_str(),
                format_bytes(static_cast<double>(device.bytes_total)).c_str());
  }
  ImGui::EndTable();
}

// Where things are: devices, ranks on them, the cells' source, the round's transfers.
void draw_placement(const Session& session, const ViewContext& context, const UiStrings& t) {
  const PlacementReport report = session.backend().placement();
  if (report.devices.empty()) {
    ImGui::TextWrapped("%s", t.devices_host_memory);
  } else {
    draw_devices_table(report, t);
    ImGui::Spacing();
    ImGui::TextUnformatted(t.devices_placement);
    std::string ranks;
    for (std::size_t rank = 0; rank < report.device_of_rank.size(); ++rank)
      ranks += (rank ? ",  " : "") + format(t.devices_rank_on, static_cast<int>(rank), report.device_of_rank[rank]);
    ImGui::TextWrapped("%s", ranks.c_str());
  }
  if (!context.cell_source.empty()) ImGui::TextWrapped(t.devices_cells, context.cell_source.c_str());
  ImGui::Separator();

  const Schedule& schedule = session.schedule();
  const int round = link_view_round(context.moment, schedule.round_count());
  if (round == 0) {
    ImGui::TextUnformatted(t.devices_no_rounds);
    return;
  }
  const bool pipelined = pipeline_shape_of(schedule).pipelined();
  ImGui::Text(pipelined ? t.devices_wave : t.devices_round, round, schedule.round_count());
  for (const LinkLoad& link : link_loads(schedule.rounds[static_cast<std::size_t>(round - 1)], session.layout(),
                                         session.config().dtype)) {
    const auto route = static_cast<std::size_t>(session.backend().route(link.src, link.dst));
    ImGui::Text(t.devices_transfer, link.src, link.dst, t.devices_route[route],
                format_bytes(static_cast<double>(link.bytes)).c_str());
  }
}

// Every round's measured time beside its number; the round of the moment highlighted.
void draw_round_times(const Session& session, const ViewContext& context, const UiStrings& t) {
  const int rounds = session.round_count();
  const char* clock = nullptr;
  for (int r = 0; r < rounds && clock == nullptr; ++r) clock = round_time(session, r, t, context.recorded_round_us).clock;
  if (clock == nullptr) {
    ImGui::TextWrapped("%s", rounds == 0 ? t.devices_no_rounds : t.devices_no_times);
    return;
  }
  // The heading goes with its table: neither where not even one row would fit under it.
  const std::string heading = format(t.devices_times, clock);
  const float row_h = ImGui::GetTextLineHeight() + ImGui::GetStyle().CellPadding.y * 2;
  const float heading_h = ImGui::CalcTextSize(heading.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y +
                          ImGui::GetStyle().ItemSpacing.y;
  if (ImGui::GetContentRegionAvail().y - heading_h < 2 * row_h) return;
  ImGui::TextWrapped("%s", heading.c_str());
  const int current = link_view_round(context.moment, rounds);
  const ImU32 highlight = to_imcol(view_colours(context.theme).selected_border, 0.25f);
  // The list follows the round of the moment: scrolled to it whenever it changes, and free to
  // scroll by hand in between. The round last followed lives in this window's ImGui storage.
  int* followed = ImGui::GetStateStorage()->GetIntRef(ImGui::GetID("##followed_round"), 0);
  const bool follow = *followed != current;
  *followed = current;
  // The table scrolls under its header row, which stays.
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_ScrollY;
  // Whole rows only: the table is as tall as the header and the rows that fit entirely, and
  // following a round scrolls by whole rows, so no number is ever drawn cut in half.
  const int rows_fit = std::min(rounds, static_cast<int>(std::floor(ImGui::GetContentRegionAvail().y / row_h)) - 1);
  if (rows_fit < 1) return;
  if (!ImGui::BeginTable("##round_times", 2, flags, ImVec2(0, row_h * static_cast<float>(rows_fit + 1)))) return;
  if (follow) {
    const int first = std::clamp(current - 1 - rows_fit / 2, 0, std::max(0, rounds - rows_fit));
    ImGui::SetScrollY(row_h * static_cast<float>(first));
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(t.devices_column_round, ImGuiTableColumnFlags_WidthStretch, 0.5f);
  ImGui::TableSetupColumn(t.devices_column_time, ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;  // 510 rounds with 256 GPUs: draw only the visible rows
  clipper.Begin(rounds);
  if (follow) clipper.ForceDisplayRangeByIndices(current - 1, current);
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      ImGui::TableNextRow();
      if (r + 1 == current) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, highlight);
      ImGui::TableNextColumn();
      ImGui::Text("%d", r + 1);
      ImGui::TableNextColumn();
      const RoundTime time = round_time(session, r, t, context.recorded_round_us);
      if (time.microseconds) ImGui::TextUnformatted(format_duration(*time.microseconds).c_str());
      else ImGui::TextDisabled("%s", t.devices_not_run);
    }
  }
  ImGui::EndTable();
}

}  // namespace

RoundTime round_time(const Session& session, int round_index, const UiStrings& strings,
                     const std::vector<std::optional<double>>& recorded) {
  if (!recorded.empty()) {
    const auto index = static_cast<std::size_t>(round_index);
    if (index < recorded.size() && recorded[index]) return {recorded[index], strings.devices_clock_recorded};
    return {};
  }
  if (const auto device = session.round_microseconds(round_index)) return {device, strings.devices_clock_cuda};
  if (const auto host = session.round_host_microseconds(round_index)) return {host, strings.devices_clock_host};
  return {};
}

std::string format_duration(double microseconds) {
  char text[32];
  if (microseconds < 1000) std::snprintf(text, sizeof text, "%.1f us", microseconds);
  else if (microseconds < 1e6) std::snprintf(text, sizeof text, "%.2f ms", microseconds / 1e3);
  else std::snprintf(text, sizeof text, "%.2f s", microseconds / 1e6);
  return text;
}

void draw_devices_view(const Rect& area, const ViewContext& context) {
  const UiStrings& t = ui_strings_for(context.language);
  begin_view_window("##devices_view", area, view_colours(context.theme));
  if (context.session == nullptr) {
    ImGui::End();
    return;
  }
  // Side by side when there is room for both; the round times below otherwise.
  const float line = ImGui::GetTextLineHeight();
  const bool side_by_side = area.w >= line * 40;
  const float times_w = std::round(std::clamp(area.w * 0.3f, line * 12, line * 22));
  const Rect where = side_by_side ? Rect{area.x, area.y, area.w - times_w, area.h}
                                  : Rect{area.x, area.y, area.w, std::round(area.h * 0.6f)};
  const Rect times = side_by_side ? Rect{where.right(), area.y, times_w, area.h}
                                  : Rect{area.x, where.bottom(), area.w, area.h - where.h};
  begin_region("##devices_where", where);
  draw_placement(*context.session, context, t);
  ImGui::EndChild();
  begin_region("##devices_times", times);
  draw_round_times(*context.session, context, t);
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace ringviz::gui
