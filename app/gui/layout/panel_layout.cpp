#include "app/gui/layout/panel_layout.h"

#include <algorithm>

namespace ringviz::gui {

PanelLayout layout_panels(float width, float height, float ui_scale) {
  const float s = ui_scale;
  // Side columns grow with the window but give the ring view at least ~40% of the width.
  const bool side_columns = width >= std::min(kSideColumnsMinWidth * s, 1100.0f);
  const float left =
      side_columns ? std::round(std::min(std::clamp(width * 0.19f, 250 * s, 340 * s), width * 0.30f)) : 0.0f;
  const float right =
      side_columns ? std::round(std::min(std::clamp(width * 0.25f, 320 * s, 440 * s), width * 0.32f)) : 0.0f;
  const float controls = std::round(std::min(86 * s, height * 0.25f));
  const float caption = std::round(std::min(62 * s, height * 0.15f));
  const float body = std::max(0.0f, height - controls);
  const float middle = std::max(0.0f, width - left - right);
  const float table = std::round(body * 0.56f);

  PanelLayout p;
  p.setup = {0, 0, left, body};
  p.caption = {left, 0, middle, caption};
  p.view = {left, caption, middle, std::max(0.0f, body - caption)};
  p.round_table = {left + middle, 0, right, table};
  p.traffic = {left + middle, table, right, body - table};
  p.controls = {0, body, width, height - body};
  return p;
}

LeastWindow least_window(float ui_scale, float controls_width) {
  return {std::max(kMinUsableWidth * ui_scale, controls_width), kMinUsableHeight * ui_scale};
}

bool window_too_small(float width, float height, float ui_scale, float controls_width) {
  const LeastWindow least = least_window(ui_scale, controls_width);
  return width < least.width || height < least.height;
}

}  // namespace ringviz::gui
