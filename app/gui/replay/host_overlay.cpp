#include "app/gui/replay/host_overlay.h"

#include <algorithm>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/replay/host_colours.h"

namespace ringviz::gui {

void draw_host_overlay(const RingGeometry& geometry, const CaptureRecord& capture, const Rect& view, float ui_scale) {
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
  ImGui::End();
}

}  // namespace ringviz::gui
