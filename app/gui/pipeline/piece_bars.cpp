#include "app/gui/pipeline/piece_bars.h"

#include <algorithm>
#include <cmath>

namespace ringviz::gui {

PieceBars piece_bars(const RingGeometry& geometry, int pieces, float top, float bottom, float line, float ui_scale) {
  PieceBars bars;
  bars.pieces = std::max(1, pieces);
  bars.top = top;
  bars.room = geometry.cell_height - top - bottom;
  bars.height = std::min(std::floor(bars.room * 0.8f), std::round(line * 1.6f));
  bars.pad = std::round(3.0f * ui_scale);
  bars.segment = (geometry.cell_width - 2 * bars.pad) / static_cast<float>(bars.pieces);
  bars.gap = bars.segment >= 5.0f ? 1.0f : 0.0f;
  bars.drawn = bars.pieces > 1 && bars.segment >= 2.0f && bars.height >= 3.0f;
  return bars;
}

Rect piece_rect(const RingGeometry& geometry, const PieceBars& bars, int rank, int slot, int piece) {
  const Rect cell = geometry.painted_cell(rank, slot);
  const float y = std::round(cell.y + bars.top + (bars.room - bars.height) * 0.5f);
  return {std::round(cell.x + bars.pad + bars.segment * static_cast<float>(piece)), y, bars.segment - bars.gap,
          bars.height};
}

}  // namespace ringviz::gui
