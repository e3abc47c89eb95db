#pragma once
// The ring view's NVSwitch, for a schedule through a switch that reduces (NVLS,
// Schedule::through_switch): spokes each way between every GPU and the switch in place of the
// ring's arrows, lit where the round's transfers travel, and the switch box with one cell per
// slot that shows the sum the switch forms there (docs/architecture.md, "The GUI"). The paths
// the transfers ride are geometry: app/gui/layout/switch_geometry.h.
#include <imgui.h>

#include "app/gui/layout/switch_geometry.h"
#include "app/gui/render/theme.h"
#include "app/gui/state/session_model.h"
#include "core/model/config.h"
#include "core/model/text.h"
#include "core/schedule/rounds.h"

namespace ringviz::gui {

struct SwitchScene {
  ImDrawList* dl;
  const ViewColours& colours;
  PaletteKind palette;
  const Config& config;
  const Round* round;  // in flight; null at rest
  Rgb phase_colour;
  float thickness;
  float head;
  float ui_scale;
  // What the switch has summed: the owners' slots after the reducing round, once it has begun
  // (null before); `summing` fades the sums in while that round's parts travel.
  const ShownState* sums;
  float sums_alpha;
};

// The spokes, under the boxes' cells and packets.
void draw_switch_spokes(const SwitchScene& scene, const SwitchGeometry& geometry);
// The switch box and its cells.
void draw_switch_box(const SwitchScene& scene, const SwitchGeometry& geometry);
// Its title, over the packets (drawn last, with the GPUs' titles).
void draw_switch_title(ImDrawList* dl, const ViewColours& colours, float ui_scale, const SwitchGeometry& geometry,
                       Language language);

}  // namespace ringviz::gui
