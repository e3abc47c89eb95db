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
};

PanelLayout layout_panels(float width, float height, float ui_scale);

}  // namespace ringviz::gui
