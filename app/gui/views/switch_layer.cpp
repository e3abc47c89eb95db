#include "app/gui/views/switch_layer.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/render/rank_stripes.h"
#include "app/gui/text/strings.h"
#include "core/engine/contributor_label.h"

namespace ringviz::gui {

namespace {

void draw_spoke(ImDrawList* dl, const ArrowPath& path, ImU32 colour, float thickness, float head) {
  if (path.points.size() < 2) return;
  const Vec2 tip = path.points.back();
  const Vec2 d = path.direction_at(1.0f);
  const Vec2 base = tip - d * head;
  const Vec2 side{-d.y, d.x};
  dl->AddLine(to_imvec(path.points.front()), to_imvec(base), colour, thickness);
  dl->AddTriangleFilled(to_imvec(tip), to_imvec(base + side * (head * 0.5f)), to_imvec(base - side * (head * 0.5f)),
                        colour);
}

}  // namespace

void draw_switch_spokes(const SwitchScene& scene, const SwitchGeometry& geometry) {
  const std::size_t n = geometry.up.size();
  std::vector<char> sends(n, 0), receives(n, 0);
  if (scene.round != nullptr)
    for (const Transfer& transfer : scene.round->transfers) {
      sends[static_cast<std::size_t>(transfer.src)] = 1;
      receives[static_cast<std::size_t>(transfer.dst)] = 1;
    }
  const ImU32 idle = to_imcol(scene.colours.arrow, 0.7f);
  const ImU32 busy = to_imcol(scene.phase_colour, 0.9f);
  for (std::size_t r = 0; r < n; ++r) {
    draw_spoke(scene.dl, geometry.up[r], sends[r] ? busy : idle, scene.thickness, scene.head);
    draw_spoke(scene.dl, geometry.down[r], receives[r] ? busy : idle, scene.thickness, scene.head);
  }
}

void draw_switch_box(const SwitchScene& scene, const SwitchGeometry& geometry) {
  ImDrawList* dl = scene.dl;
  const ViewColours& colours = scene.colours;
  const float rounding = 5.0f * scene.ui_scale;
  dl->AddRectFilled(to_imvec(geometry.box.min()), to_imvec(geometry.box.max()), to_imcol(colours.box_background),
                    rounding);
  dl->AddRect(to_imvec(geometry.box.min()), to_imvec(geometry.box.max()), to_imcol(colours.box_border), rounding, 0,
              1.5f * scene.ui_scale);
  const float pad = 3.0f * scene.ui_scale;
  const int n = static_cast<int>(geometry.cells.size());
  for (int slot = 0; slot < n; ++slot) {
    const Rect& cell = geometry.cells[static_cast<std::size_t>(slot)];
    dl->AddRect(to_imvec(cell.min()), to_imvec(cell.max()), to_imcol(colours.box_border), 2.0f * scene.ui_scale);
    if (scene.sums == nullptr || scene.sums_alpha <= 0) continue;
    // The switch's sum of slot j is what GPU j, its owner, holds once the reducing round is done.
    const RankSet& set = scene.sums->provenance.at(slot, slot);
    if (set.none()) continue;
    const Rect inside = cell.inset(1.0f);
    fill_stripes(dl, inside, set, n, scene.palette, 2.0f * scene.ui_scale);
    if (scene.sums_alpha < 1.0f)  // fading in: the background over the stripes, thinning
      dl->AddRectFilled(to_imvec(inside.min()), to_imvec(inside.max()),
                        to_imcol(colours.box_background, 1.0f - scene.sums_alpha), 2.0f * scene.ui_scale);
    // The sum's name where it fits the cell, on a plate as the ring's cells print it.
    const LabelForms forms = label_forms(scene.config, set, slot);
    for (const std::string* form : {&forms.terms, &forms.runs}) {
      const ImVec2 size = ImGui::CalcTextSize(form->c_str());
      if (form->empty() || size.x > cell.w - 2 * pad || size.y > cell.h) continue;
      const ImVec2 at(cell.x + std::round((cell.w - size.x) * 0.5f), cell.y + std::round((cell.h - size.y) * 0.5f));
      dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + size.x + 2, at.y + size.y),
                        to_imcol(colours.box_background, 0.82f * scene.sums_alpha), 2.0f);
      dl->AddText(at, to_imcol(colours.text, scene.sums_alpha), form->c_str());
      break;
    }
  }
}

void draw_switch_title(ImDrawList* dl, const ViewColours& colours, float ui_scale, const SwitchGeometry& geometry,
                       Language language) {
  const UiStrings& text = ui_strings_for(language);
  // The longest form that fits, on a plate of the box's colour: packets arriving at the
  // switch's top edge pass under it, as they pass under the GPUs' titles.
  for (const char* title : {text.switch_title, text.switch_short}) {
    const ImVec2 size = ImGui::CalcTextSize(title);
    if (size.x > geometry.title.w) continue;
    const ImVec2 at(geometry.title.x + std::round((geometry.title.w - size.x) * 0.5f), geometry.title.y);
    const float margin = 2.0f * ui_scale;
    dl->AddRectFilled(ImVec2(at.x - margin, at.y - margin), ImVec2(at.x + size.x + margin, at.y + size.y + margin),
                      to_imcol(colours.box_background), 2.0f * ui_scale);
    dl->AddText(at, to_imcol(colours.text), title);
    return;
  }
}

}  // namespace ringviz::gui
