#include "app/gui/layout/presentation.h"

#include <algorithm>
#include <cmath>

namespace ringviz::gui {

float clamp_presentation_scale(float scale) {
  if (!std::isfinite(scale)) return kDefaultPresentationScale;
  return std::clamp(scale, kMinPresentationScale, kMaxPresentationScale);
}

PanelLayout layout_presentation_panels(float width, float height, float ui_scale) {
  const float s = ui_scale;
  // The transfers and traffic column only when it can be as wide as in the normal layout
  // without taking more than 30% of the width; squeezed, its tables read as noise from the back
  // of the room, and the ring view is what the room looks at.
  const bool side_column = width >= 1100.0f * s;
  const float right = side_column ? std::round(std::min(320.0f * s, width * 0.30f)) : 0.0f;
  const float controls = std::round(std::min(60 * s, height * 0.22f));
  // Room for the view tabs, the caption's title and three lines of large text.
  const float caption = std::round(std::min(78 * s, height * 0.26f));
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
