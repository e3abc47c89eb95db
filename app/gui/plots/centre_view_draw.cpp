#include "app/gui/plots/centre_view_draw.h"

#include <algorithm>
#include <cmath>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

ImDrawList* begin_view_window(const char* id, const Rect& area, const ViewColours& colours) {
  begin_panel(id, area, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(to_imvec(area.min()), to_imvec(area.max()), to_imcol(colours.view_background));
  return dl;
}

double nice_step(double max, int target) {
  if (!(max > 0)) return 1;
  const double raw = max / std::max(1, target);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / power;
  const double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

double nice_ceiling(double max, int target) {
  const double step = nice_step(max, target);
  return std::max(step, std::ceil(max / step - 1e-9) * step);
}

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, float thickness, float dash, float gap) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  if (length <= 0 || dash <= 0) return;
  const float ux = dx / length, uy = dy / length;
  for (float at = 0; at < length; at += dash + gap) {
    const float end = std::min(length, at + dash);
    dl->AddLine(ImVec2(a.x + ux * at, a.y + uy * at), ImVec2(a.x + ux * end, a.y + uy * end), colour, thickness);
  }
}

void hatch_rect(ImDrawList* dl, const Rect& r, ImU32 colour, float spacing, float thickness) {
  if (r.w <= 0 || r.h <= 0 || spacing <= 0) return;
  dl->PushClipRect(to_imvec(r.min()), to_imvec(r.max()), true);
  // Lines at 45 degrees, from the bottom-left corner outward.
  for (float offset = -r.h; offset < r.w; offset += spacing)
    dl->AddLine(ImVec2(r.x + offset, r.bottom()), ImVec2(r.x + offset + r.h, r.y), colour, thickness);
  dl->PopClipRect();
}

void text_centred(ImDrawList* dl, float x, float y, ImU32 colour, const char* text) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  dl->AddText(ImVec2(std::round(x - size.x * 0.5f), std::round(y)), colour, text);
}

ImU32 ink_on(Rgb under) {
  return luminance(under) > 0.55f ? IM_COL32(12, 14, 18, 255) : IM_COL32(255, 255, 255, 255);
}

float legend_swatch(ImDrawList* dl, ImVec2 at, float size, ImU32 colour, ImU32 ink, const char* label,
                    bool hatched, ImU32 hatch) {
  const Rect box{at.x, at.y + 1, size, size - 2};
  dl->AddRectFilled(to_imvec(box.min()), to_imvec(box.max()), colour, 2.0f);
  if (hatched) hatch_rect(dl, box, hatch, std::max(3.0f, size / 3));
  dl->AddText(ImVec2(at.x + size * 1.35f, at.y), ink, label);
  return size * 1.35f + ImGui::CalcTextSize(label).x;
}

float labelled_width(float field, const char* label) {
  const float text = ImGui::CalcTextSize(label, nullptr, true).x;
  return field + (text > 0 ? ImGui::GetStyle().ItemInnerSpacing.x + text : 0.0f);
}

int flow_rows(const std::vector<float>& widths, float available) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  int rows = 1;
  float x = 0;
  for (float width : widths) {
    if (x > 0 && x + spacing + width > available) {
      ++rows;
      x = width;
    } else {
      x += (x > 0 ? spacing : 0) + width;
    }
  }
  return rows;
}

void ControlFlow::next(float width) {
  if (!first_) {
    ImGui::SameLine();
    if (ImGui::GetCursorScreenPos().x + width > right_) ImGui::NewLine();
  }
  first_ = false;
}

void polyline(ImDrawList* dl, const std::vector<ImVec2>& points, ImU32 colour, float thickness) {
  std::vector<ImVec2> run;
  auto flush = [&] {
    if (run.size() >= 2) dl->AddPolyline(run.data(), static_cast<int>(run.size()), colour, 0, thickness);
    run.clear();
  };
  for (const ImVec2& p : points) {
    if (std::isnan(p.x) || std::isnan(p.y)) flush();
    else run.push_back(p);
  }
  flush();
}

}  // namespace ringviz::gui
