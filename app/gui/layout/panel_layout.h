#pragma once
#include "app/gui/layout/geometry.h"

namespace ringviz::gui {

// The fixed arrangement of the main window: setup on the left, the ring view in the middle
// under a caption, round table and traffic on the right, controls along the bottom. It is a
// pure function of the window size and the UI scale, so screenshots are reproducible and
// panels never overlap.
struct PanelLayout {
  Rect setup;
  Rect caption;
  Rect view;
  Rect round_table;
  Rect traffic;
  Rect controls;
  Rect devices;  // the devices view, when its tab is open (set by GuiApp, not by the layout)
  Rect timeline;  // a replayed capture's per-rank timeline, cut from the bottom of `view`; else empty
};

// In a narrow window (below kSideColumnsMinWidth x the UI scale, or 1100 pixels) the setup,
// transfers and traffic columns are left out (width 0): squeezed, they are unreadable, and the
// centre view is what the window is for.
inline constexpr float kSideColumnsMinWidth = 560.0f;
PanelLayout layout_panels(float width, float height, float ui_scale);

// The smallest window (in pixels at UI scale 1; it grows with the scale) in which the panels
// are drawn at all; below it the whole window shows only a notice saying how large to make it.
// `controls_width`: what the controls bar needs whole, measured in the frame's font by the
// caller (0 where there is no bar, as on the stage); the window is at least that wide too.
inline constexpr float kMinUsableWidth = 200.0f;
inline constexpr float kMinUsableHeight = 120.0f;
struct LeastWindow {
  float width, height;
};
LeastWindow least_window(float ui_scale, float controls_width = 0);
bool window_too_small(float width, float height, float ui_scale, float controls_width = 0);

}  // namespace ringviz::gui
