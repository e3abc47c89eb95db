#include "app/gui/replay/timeline_panel.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/replay/host_colours.h"
#include "app/gui/replay/replay_timing.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

namespace {

struct RoundExtent {
  double start = 0;
  double end = 0;
};

RoundExtent round_extent(const std::vector<CaptureSpan>& spans) {
  RoundExtent extent{spans.empty() ? 0 : spans.front().start_us, spans.empty() ? 0 : spans.front().end_us};
  for (const CaptureSpan& rank : spans) {
    extent.start = std::min(extent.start, rank.start_us);
    extent.end = std::max(extent.end, rank.end_us);
  }
  return extent;
}

constexpr float kRowPixels = 16.0f;
constexpr int kMaxRows = 32;  // beyond that rows shrink to fit rather than grow the panel

}  // namespace

double timeline_time_at(const CaptureRecord& capture, double position) {
  if (capture.rounds.empty()) return 0;
  const int rounds = static_cast<int>(capture.rounds.size());
  position = std::clamp(position, 0.0, static_cast<double>(rounds));
  const int index = std::min(static_cast<int>(std::floor(position)), rounds - 1);
  const RoundExtent extent = round_extent(capture.rounds[static_cast<std::size_t>(index)]);
  return extent.start + (position - index) * (extent.end - extent.start);
}

float timeline_height(int ranks, float ui_scale, float line_height, float available) {
  const float rows = static_cast<float>(std::clamp(ranks, 0, kMaxRows));
  return std::max(0.0f, std::min(available * 0.4f, rows * kRowPixels * ui_scale + 2.6f * line_height));
}

void TimelinePanel::draw(const Rect& area, const CaptureRecord& capture, double position, const FrameContext& frame) {
  const UiStrings& t = frame.text();
  const ViewColours& colours = view_colours(frame.theme);
  begin_panel("##timeline", area, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  ImDrawList& draw = *ImGui::GetWindowDrawList();
  const int ranks = static_cast<int>(capture.ranks.size());
  const int rounds = static_cast<int>(capture.rounds.size());
  if (ranks == 0 || rounds == 0) {
    ImGui::End();
    return;
  }
  const float scale = frame.ui_scale;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const Rgb send = colours.phase_all_gather, wait = colours.muted_text, reduce = colours.phase_reduce_scatter;
  // The delay must stand apart from the send it holds back and the reduce of the same colour family.
  const Rgb delay{222, 72, 72};

  // Legend along the top.
  ImVec2 cursor(area.x + 6 * scale, area.y + 2 * scale);
  auto legend = [&](Rgb colour, const char* name) {
    draw.AddRectFilled(ImVec2(cursor.x, cursor.y + line * 0.25f), ImVec2(cursor.x + line * 0.5f, cursor.y + line * 0.75f), to_imcol(colour));
    draw.AddText(ImVec2(cursor.x + line * 0.7f, cursor.y), to_imcol(colours.text), name);
    cursor.x += line * 0.7f + ImGui::CalcTextSize(name).x + line;
  };
  const Rgb span_colours[] = {send, delay, wait, reduce};
  for (int kind = 0; kind < 4; ++kind) legend(span_colours[kind], t.timeline_spans[kind]);
  // The hosts, in the colours that outline their GPU boxes in the ring view.
  const HostGroups hosts = host_groups(capture);
  cursor.x += line;
  draw.AddText(cursor, to_imcol(colours.muted_text), t.hosts_legend);
  cursor.x += ImGui::CalcTextSize(t.hosts_legend).x + line * 0.5f;
  for (std::size_t host = 0; host < hosts.names.size(); ++host)
    legend(host_colour(static_cast<int>(host)), hosts.names[host].c_str());
  float label_width = 0;
  for (int rank = 0; rank < ranks; ++rank)
    label_width = std::max(label_width, ImGui::CalcTextSize(format(t.timeline_row, rank, capture.ranks[static_cast<std::size_t>(rank)].host.c_str()).c_str()).x);
  const Rect plot{area.x + label_width + 12 * scale, area.y + line * 1.2f + line, area.w - label_width - 20 * scale,
                  area.h - line * 2.4f};
  if (plot.w <= 8 || plot.h <= 4) {
    ImGui::End();
    return;
  }
  const double first = round_extent(capture.rounds.front()).start;
  const double last = std::max(first + 1e-9, round_extent(capture.rounds.back()).end);
  auto x_at = [&](double us) { return plot.x + static_cast<float>((us - first) / (last - first)) * plot.w; };
  const float row = plot.h / static_cast<float>(ranks);
  const float bar = std::max(1.0f, row * 0.7f);

  // Round boundaries with their numbers above the plot.
  for (int index = 0; index < rounds; ++index) {
    const float x = std::round(x_at(round_extent(capture.rounds[static_cast<std::size_t>(index)]).start));
    draw.AddLine(ImVec2(x, plot.y - line * 0.2f), ImVec2(x, plot.y + plot.h), to_imcol(colours.box_border, 0.8f));
    const std::string number = std::to_string(index + 1);
    if (plot.w / static_cast<float>(rounds) > ImGui::CalcTextSize(number.c_str()).x + 4)
      draw.AddText(ImVec2(x + 2 * scale, plot.y - line), to_imcol(colours.muted_text), number.c_str());
  }

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered_window = ImGui::IsWindowHovered();
  for (int rank = 0; rank < ranks; ++rank) {
    const float top = plot.y + row * static_cast<float>(rank) + (row - bar) / 2;
    if (row >= line * 0.8f) {
      const Rgb host = host_colour(hosts.of_rank[static_cast<std::size_t>(rank)]);
      draw.AddText(ImVec2(area.x + 6 * scale, top + bar / 2 - ImGui::GetTextLineHeight() / 2), to_imcol(host),
                   format(t.timeline_row, rank, capture.ranks[static_cast<std::size_t>(rank)].host.c_str()).c_str());
    }
    for (int index = 0; index < rounds; ++index) {
      const CaptureSpan& s = capture.rounds[static_cast<std::size_t>(index)][static_cast<std::size_t>(rank)];
      auto span = [&](double from, double to, Rgb colour) {
        const float x0 = x_at(from), x1 = std::max(x_at(to), x0 + 1.0f);
        draw.AddRectFilled(ImVec2(x0, top), ImVec2(x1, top + bar), to_imcol(colour));
      };
      const double delay_end = std::min(s.posted_us, s.start_us + s.delay_us);
      span(s.start_us, delay_end, delay);
      span(delay_end, s.posted_us, send);
      span(s.posted_us, s.arrived_us, wait);
      span(s.arrived_us, s.end_us, reduce);
      const bool over = hovered_window && mouse.y >= top && mouse.y < top + bar && mouse.x >= x_at(s.start_us) &&
                        mouse.x < std::max(x_at(s.end_us), x_at(s.start_us) + 1.0f);
      if (over)
        ImGui::SetTooltip(t.timeline_tooltip, rank, capture.ranks[static_cast<std::size_t>(rank)].host.c_str(), index + 1,
                          duration_text(s.start_us).c_str(), duration_text(s.posted_us).c_str(),
                          duration_text(s.arrived_us).c_str(), duration_text(s.end_us).c_str(),
                          duration_text(s.delay_us).c_str(), duration_text(s.arrived_us - s.posted_us).c_str());
    }
  }

  const float now = std::round(x_at(timeline_time_at(capture, position)));
  draw.AddLine(ImVec2(now, plot.y - line * 0.2f), ImVec2(now, plot.y + plot.h), to_imcol(colours.flash), std::max(1.0f, 2 * scale));
  ImGui::End();
}

}  // namespace ringviz::gui
