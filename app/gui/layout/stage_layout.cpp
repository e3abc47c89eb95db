#include "app/gui/layout/stage_layout.h"

#include <algorithm>
#include <cmath>

namespace ringviz::gui {

namespace {
constexpr float kBaseFontPixels = 13.0f;  // ImGui's default font: larger sizes are its multiples
}

float stage_ui_scale(int height) { return std::max(1.0f, static_cast<float>(height) / 360.0f); }

float stage_caption_pixels(float height) {
  // Rounded up, not to the nearest: 4% of 720 is 28.8, and 26 would be below the 28 pixels a
  // phone needs at 720p.
  const float ideal = std::max(kBaseFontPixels, height * 0.04f);
  return std::ceil(ideal / kBaseFontPixels - 1e-4f) * kBaseFontPixels;
}

PanelLayout layout_stage_panels(float width, float height, float ui_scale) {
  // Two lines of UI text (title, formula) with the panel's padding, and never more than a
  // fifth of the frame.
  const float header = std::round(std::min((kBaseFontPixels * 2 + 16) * ui_scale, height * 0.2f));
  PanelLayout p;
  p.setup = {0, 0, 0, 0};
  p.caption = {0, 0, width, header};
  p.view = {0, header, width, std::max(0.0f, height - header)};
  p.round_table = {width, 0, 0, 0};
  p.traffic = {width, 0, 0, 0};
  p.controls = {0, height, width, 0};
  return p;
}

}  // namespace ringviz::gui
