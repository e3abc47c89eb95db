#pragma once
// Where a cell's pieces go in the pipelined ring view (docs/architecture.md, "The pipelined
// ring view"): one bar per cell between its label and its values, cut into its C·S pieces in
// buffer order (channel-major). Pure geometry, shared by the drawing and the layout dump.
#include "app/gui/layout/geometry.h"
#include "app/gui/layout/ring_geometry.h"

namespace ringviz::gui {

struct PieceBars {
  bool drawn = false;  // false when a piece would be under two pixels wide or the bar under three tall
  int pieces = 1;
  float top = 0;       // where the free room in a cell starts, from its top
  float room = 0;      // the free room's height; the bar is centred in it
  float height = 0;
  float pad = 0;       // left and right of the bar inside the cell
  float segment = 0;   // width per piece, gap included
  float gap = 0;
};

// `top` and `bottom`: what the cell's label and values (or heat strip) take, in pixels.
PieceBars piece_bars(const RingGeometry& geometry, int pieces, float top, float bottom, float line, float ui_scale);
Rect piece_rect(const RingGeometry& geometry, const PieceBars& bars, int rank, int slot, int piece);

}  // namespace ringviz::gui
