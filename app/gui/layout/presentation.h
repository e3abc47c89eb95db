#pragma once
#include "app/gui/layout/panel_layout.h"

// Presentation mode's rules, apart from any drawing: the layout without the setup panel, the
// text size range, and when the mouse cursor hides. Tested without GL.

namespace ringviz::gui {

// Presentation text is this many times the normal UI scale.
inline constexpr float kMinPresentationScale = 1.5f;
inline constexpr float kMaxPresentationScale = 3.0f;
inline constexpr float kDefaultPresentationScale = 2.0f;
inline constexpr float kPresentationScaleStep = 0.25f;
float clamp_presentation_scale(float scale);

// The cursor hides after this long without moving (presentation mode only).
inline constexpr double kCursorHideSeconds = 2.0;

// The presentation arrangement: no setup panel (its rect is empty), the caption and the ring
// view across the freed width, controls along the bottom; transfers and traffic on the right
// only when the window is wide enough for them at this scale (otherwise their rects are empty).
// `ui_scale` already includes the presentation scale.
PanelLayout layout_presentation_panels(float width, float height, float ui_scale);

// Hides the cursor once the mouse has kept still for kCursorHideSeconds; any movement or
// button shows it again at once.
class CursorIdle {
 public:
  // One frame: where the mouse is, whether a button is down, and the time since the last call.
  // Returns whether the cursor should be hidden this frame.
  bool update(float x, float y, bool button_down, double seconds);
  bool hidden() const { return still_seconds_ >= kCursorHideSeconds; }
  void reset() { still_seconds_ = 0; }

 private:
  float x_ = 0, y_ = 0;
  bool seen_ = false;
  double still_seconds_ = 0;
};

}  // namespace ringviz::gui
