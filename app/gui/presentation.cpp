#include "app/gui/presentation.h"

#include <algorithm>
#include <cmath>

namespace ringviz::gui {

float clamp_presentation_scale(float scale) {
  if (!std::isfinite(scale)) return kDefaultPresentationScale;
  return std::clamp(scale, kMinPresentationScale, kMaxPresentationScale);
}

PanelLayout layout_presentation_panels(float width, float height, float ui_scale) {
  const float s = ui_scale;
  // The right column grows with the text but never past 30% of the width: the ring view is
  // what the room looks at.
  const float right = std::round(std::min(210.0f * s, width * 0.30f));
  const float controls = std::round(std::min(60 * s, height * 0.22f));
  const float caption = std::round(std::min(52 * s, height * 0.22f));
  const float body = std::max(0.0f, height - controls);
  const float middle = std::max(0.0f, width - right);
  const float table = std::round(body * 0.56f);

  PanelLayout p;
  p.setup = {0, 0, 0, 0};
  p.caption = {0, 0, middle, caption};
  p.view = {0, caption, middle, std::max(0.0f, body - caption)};
  p.round_table = {middle, 0, right, table};
  p.traffic = {middle, table, right, body - table};
  p.controls = {0, body, width, height - body};
  return p;
}

bool CursorIdle::update(float x, float y, bool button_down, double seconds) {
  const bool moved = !seen_ || x != x_ || y != y_;
  x_ = x;
  y_ = y;
  seen_ = true;
  if (moved || button_down) still_seconds_ = 0;
  else still_seconds_ += std::max(0.0, seconds);
  return hidden();
}

}  // namespace ringviz::gui
