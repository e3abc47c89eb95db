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
  const float margin = line_height * 1.5f;  // room for the spokes' heads
  const float aspect = 1.6f;
  float height = std::min(view.w / aspect, view.h) * 0.5f;
  const float least = line_height * 3.0f;
  Rect box;
  for (; height >= least; height *= 0.94f) {
    const float width = height * aspect;
    box = {std::round(centre.x - width * 0.5f), std::round(centre.y - height * 0.5f), std::round(width),
           std::round(height)};
    if (!touches_a_gpu(ring, box, margin)) break;
  }
  if (height < least) return geometry;
  geometry.fits = true;
  geometry.box = box;
  const float pad = std::round(line_height * 0.3f);
  geometry.title = {box.x + pad, box.y + pad, box.w - 2 * pad, line_height};
  // One row of cells under the title, each as wide as the row allows (at most two lines tall).
  const float row_top = geometry.title.bottom() + pad;
  const float cell_gap = std::max(1.0f, std::round(line_height * 0.15f));
  const float cell_w = std::floor((box.w - 2 * pad - cell_gap * static_cast<float>(n - 1)) / static_cast<float>(n));
  const float cell_h = std::min(box.bottom() - pad - row_top, line_height * 2.0f);
  for (int slot = 0; slot < n; ++slot)
    geometry.cells.push_back({box.x + pad + static_cast<float>(slot) * (cell_w + cell_gap), row_top, cell_w, cell_h});
  const float offset = line_height * 0.3f;
  for (const GpuBox& gpu : ring.boxes) {
    geometry.up.push_back(spoke(gpu.box, box, offset));
    geometry.down.push_back(spoke(box, gpu.box, offset));
  }
  return geometry;
}

}  // namespace ringviz::gui
