#include "app/gui/layout/switch_geometry.h"

#include <algorithm>
#include <cmath>

namespace ringviz::gui {

namespace {

bool touches_a_gpu(const RingGeometry& ring, const Rect& box, float margin) {
  const Rect grown{box.x - margin, box.y - margin, box.w + 2 * margin, box.h + 2 * margin};
  return std::any_of(ring.boxes.begin(), ring.boxes.end(), [&](const GpuBox& gpu) { return gpu.box.overlaps(grown); });
}

// A straight spoke between the edges of two boxes, shifted sideways by `offset` so that the
// way in and the way out are two lines.
ArrowPath spoke(const Rect& from, const Rect& to, float offset) {
  const Vec2 a = from.centre(), b = to.centre();
  const Vec2 d = b - a;
  const float length = d.length();
  const Vec2 side = length > 0 ? Vec2{-d.y / length, d.x / length} * offset : Vec2{};
  return make_path({box_exit(from, b) + side, box_exit(to, a) + side});
}

}  // namespace

SwitchGeometry layout_switch(const RingGeometry& ring, const Rect& view, float line_height) {
  SwitchGeometry geometry;
  const int n = ring.ranks;
  if (ring.grid || n < 3 || ring.boxes.empty()) return geometry;
  // The GPUs' own centre, which is the circle's.
  Vec2 centre{};
  for (const GpuBox& gpu : ring.boxes) centre = centre + gpu.box.centre() * (1.0f / static_cast<float>(n));
  // The cells in the GPUs' own grid of slots (columns x rows), so that slot j sits where it sits
  // in every GPU's box. The box is as tall as its title and cells need: cells of 2.6 lines (a
  // label over the sum's stripes) where the middle has room, down to 1.2 lines; as wide as fits.
  const int columns = std::max(1, ring.cell_columns);
  const int rows = std::max(1, (n + columns - 1) / columns);
  const float pad = std::round(line_height * 0.3f);
  const float gap = std::max(1.0f, std::round(line_height * 0.15f));
  const float margin = line_height * 1.5f;  // room for the spokes' heads
  const float widest = std::min(view.w * 0.6f, line_height * 8.0f * static_cast<float>(columns));
  const float narrowest = 2 * pad + static_cast<float>(columns) * line_height * 1.5f;
  bool found = false;
  float cell_h = line_height * 2.6f;
  Rect box;
  for (; !found && cell_h >= line_height * 1.2f; cell_h = std::floor(cell_h * 0.85f)) {
    const float height = std::round(line_height + 3 * pad + static_cast<float>(rows) * cell_h +
                                    static_cast<float>(rows - 1) * gap);
    for (float width = widest; width >= narrowest; width *= 0.94f) {
      box = {std::round(centre.x - width * 0.5f), std::round(centre.y - height * 0.5f), std::round(width), height};
      if (!touches_a_gpu(ring, box, margin)) {
        found = true;
        break;
      }
    }
  }
  if (!found) return geometry;
  geometry.fits = true;
  geometry.box = box;
  geometry.title = {box.x + pad, box.y + pad, box.w - 2 * pad, line_height};
  const float top = geometry.title.bottom() + pad;
  const float cell_w = std::floor((box.w - 2 * pad - gap * static_cast<float>(columns - 1)) / static_cast<float>(columns));
  const float cell_height = std::floor((box.bottom() - pad - top - gap * static_cast<float>(rows - 1)) /
                                       static_cast<float>(rows));
  for (int slot = 0; slot < n; ++slot)
    geometry.cells.push_back({box.x + pad + static_cast<float>(slot % columns) * (cell_w + gap),
                              top + static_cast<float>(slot / columns) * (cell_height + gap), cell_w, cell_height});
  const float offset = line_height * 0.3f;
  for (const GpuBox& gpu : ring.boxes) {
    geometry.up.push_back(spoke(gpu.box, box, offset));
    geometry.down.push_back(spoke(box, gpu.box, offset));
  }
  return geometry;
}

const ArrowPath& switch_spoke(const SwitchGeometry& geometry, const Transfer& transfer) {
  return transfer.kind == TransferKind::reduce ? geometry.up[static_cast<std::size_t>(transfer.src)]
                                               : geometry.down[static_cast<std::size_t>(transfer.dst)];
}

ArrowPath switch_packet_path(const SwitchGeometry& geometry, const Transfer& transfer, Vec2 from, Vec2 to) {
  const ArrowPath& spoke = switch_spoke(geometry, transfer);
  if (transfer.kind == TransferKind::reduce) return make_path({from, spoke.points.front(), spoke.points.back()});
  return make_path({spoke.points.front(), spoke.points.back(), to});
}

}  // namespace ringviz::gui
