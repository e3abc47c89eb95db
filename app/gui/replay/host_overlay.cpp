#include "app/gui/replay/host_overlay.h"

#include <algorithm>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/replay/host_colours.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

void draw_host_overlay(const RingGeometry& geometry, const CaptureRecord& capture, const Rect& view, float ui_scale,
                       ThemeKind theme) {
  if (!geometry.fits || view.w <= 0 || view.h <= 0) return;
  ImGui::Begin("##ring");
  ImDrawList& draw = *ImGui::GetWindowDrawList();
  const HostGroups hosts = host_groups(capture);
  const float thickness = std::max(2.0f, 3.0f * ui_scale);
  const float inset = -thickness;
  const std::size_t boxes = std::min(geometry.boxes.size(), hosts.of_rank.size());
  for (std::size_t rank = 0; rank < boxes; ++rank) {
    const Rect& box = geometry.boxes[rank].box;
    draw.AddRect(ImVec2(box.x + inset, box.y + inset), ImVec2(box.x + box.w - inset, box.y + box.h - inset),
                 to_imcol(host_colour(hosts.of_rank[rank])), 4.0f * ui_scale, 0, thickness);
  }
  const ViewColours& colours = view_colours(theme);
  const float line = ImGui::GetTextLineHeightWithSpacing();
  ImVec2 at(view.x + 8 * ui_scale, view.y + 6 * ui_scale);
  draw.AddText(at, to_imcol(colours.muted_text), ui_strings().hosts_legend);
  at.x += ImGui::CalcTextSize(ui_strings().hosts_legend).x + line * 0.5f;
  for (std::size_t host = 0; host < hosts.names.size(); ++host) {
    const Rgb colour = host_colour(static_cast<int>(host));
    draw.AddRectFilled(ImVec2(at.x, at.y + line * 0.2f), ImVec2(at.x + line * 0.6f, at.y + line * 0.8f), to_imcol(colour));
    at.x += line * 0.8f;
    draw.AddText(at, to_imcol(colour), hosts.names[host].c_str());
    at.x += ImGui::CalcTextSize(hosts.names[host].c_str()).x + line;
  }
  ImGui::End();
}

}  // namespace ringviz::gui
