#include "app/gui/layout/ring_geometry.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ringviz::gui {

namespace {

// Cells inside a box of the grid layout: a square-ish grid (N x N slots: exactly N by N).
void choose_cell_grid(int slots, int& columns, int& rows) {
  rows = std::max(1, static_cast<int>(std::floor(std::sqrt(static_cast<double>(slots)))));
  columns = (slots + rows - 1) / rows;
}

// An uneven AllToAll's N x N slots read as a matrix only as N rows of N.
bool pair_grid(int ranks, int slots) { return ranks > 1 && slots == ranks * ranks; }

}  // namespace

ArrowPath make_path(std::vector<Vec2> points) {
  ArrowPath path;
  path.points = std::move(points);
  path.lengths.resize(path.points.size(), 0.0f);
  for (std::size_t i = 1; i < path.points.size(); ++i)
    path.lengths[i] = path.lengths[i - 1] + (path.points[i] - path.points[i - 1]).length();
  return path;
}

namespace {

Rect inflate(const Rect& r, float d) { return {r.x - d, r.y - d, r.w + 2 * d, r.h + 2 * d}; }

// A curve from box a to box b that bows away from the ring's centre, trimmed where it is
// inside either box (plus a margin) so it starts and ends at the box edges.
ArrowPath curved_arrow(const Rect& a, const Rect& b, float bulge_fraction, float margin) {
  const Vec2 from = a.centre();
  const Vec2 to = b.centre();
  const Vec2 d = to - from;
  const float length = std::max(1.0f, d.length());
  const Vec2 normal = Vec2{d.y, -d.x} * (1.0f / length);  // outward for a clockwise ring
  const Vec2 control = (from + to) * 0.5f + normal * (length * bulge_fraction);
  const Rect keep_out_a = inflate(a, margin);
  const Rect keep_out_b = inflate(b, margin);
  std::vector<Vec2> points;
  constexpr int kSamples = 64;
  for (int i = 0; i <= kSamples; ++i) {
    const float t = static_cast<float>(i) / kSamples;
    const float u = 1.0f - t;
    const Vec2 p = from * (u * u) + control * (2 * u * t) + to * (t * t);
    if (keep_out_a.contains(p) || keep_out_b.contains(p)) continue;
    points.push_back(p);
  }
  if (points.size() < 2) points = {from, to};
  return make_path(std::move(points));
}

// `path` walked from its end to its start, every point moved `offset` pixels to the right of
// the original direction (a mitred offset, so that the grid's right angles stay square).
ArrowPath reversed_beside(const ArrowPath& path, float offset) {
  const std::vector<Vec2>& p = path.points;
  std::vector<Vec2> moved;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto normal_of = [&](std::size_t a, std::size_t b) {
      const Vec2 d = p[b] - p[a];
      const float length = std::max(1e-3f, d.length());
      return Vec2{-d.y / length, d.x / length};
    };
    Vec2 normal = i == 0 ? normal_of(0, 1) : i + 1 == p.size() ? normal_of(i - 1, i) : normal_of(i - 1, i) + normal_of(i, i + 1);
    const float length = normal.length();
    if (i > 0 && i + 1 < p.size() && length > 1e-3f) {
      // The mitre: the corner moves 1 / cos(half the turn) times the offset.
      const Vec2 unit = normal * (1.0f / length);
      const float cosine = std::max(0.2f, unit.x * normal_of(i - 1, i).x + unit.y * normal_of(i - 1, i).y);
      normal = unit * (1.0f / cosine);
    }
    moved.push_back(p[i] + normal * offset);
  }
  std::reverse(moved.begin(), moved.end());
  return make_path(std::move(moved));
}

void split_box(GpuBox& gpu, float title_height, float pad, int columns, int rows, float cell_w,
               float cell_h) {
  gpu.title = {gpu.box.x + pad, gpu.box.y + pad * 0.5f, gpu.box.w - 2 * pad, title_height};
  const float cells_w = columns * cell_w;
  const float cells_h = rows * cell_h;
  gpu.cells = {std::round(gpu.box.x + (gpu.box.w - cells_w) * 0.5f),
               std::round(gpu.box.y + pad * 0.5f + title_height + pad * 0.5f), cells_w, cells_h};
}

// Centres for `ranks` boxes, evenly spaced by arc length along a superellipse (exponent 1:
// an ellipse; smaller: a rounded rectangle, which uses a wide view better), clockwise, with GPU 0 at the upper
// left so that the first arrow points right.
std::vector<Vec2> ring_positions(Vec2 centre, float rx, float ry, int ranks, float exponent) {
  if (ranks == 1) return {centre};
  constexpr int kSamples = 720;
  std::vector<Vec2> curve(kSamples + 1);
  std::vector<float> length(kSamples + 1, 0.0f);
  for (int k = 0; k <= kSamples; ++k) {
    // From the top (-90 degrees), increasing angle: clockwise on a y-down screen.
    const double a = -std::numbers::pi / 2 + 2 * std::numbers::pi * k / kSamples;
    const float c = static_cast<float>(std::cos(a)), s = static_cast<float>(std::sin(a));
    curve[static_cast<std::size_t>(k)] = {centre.x + rx * std::copysign(std::pow(std::fabs(c), exponent), c),
                                          centre.y + ry * std::copysign(std::pow(std::fabs(s), exponent), s)};
    if (k > 0)
      length[static_cast<std::size_t>(k)] =
          length[static_cast<std::size_t>(k - 1)] +
          (curve[static_cast<std::size_t>(k)] - curve[static_cast<std::size_t>(k - 1)]).length();
  }
  const float total = length.back();
  std::vector<Vec2> centres;
  for (int r = 0; r < ranks; ++r) {
    float f = (static_cast<float>(r) - 0.5f) / static_cast<float>(ranks);
    if (f < 0) f += 1.0f;
    const float target = f * total;
    std::size_t k = 1;
    while (k < length.size() - 1 && length[k] < target) ++k;
    const float span = length[k] - length[k - 1];
    const float u = span > 0 ? (target - length[k - 1]) / span : 0.0f;
    centres.push_back(curve[k - 1] + (curve[k] - curve[k - 1]) * u);
  }
  return centres;
}

RingGeometry layout_circle(Rect view, int ranks, float line_height, int slots, const KeepOut& centre_keep_out) {
  RingGeometry g;
  g.ranks = ranks;
  g.slots = slots;
  const float title = std::round(line_height * 1.45f);
  const float pad = std::round(std::max(3.0f, line_height * 0.45f));
  const float arrow_room = std::max(36.0f, line_height * 4.0f);
  const float margin = std::round(line_height * 0.8f);
  const float max_cell_h = line_height * 6.5f;

  // Where the keep-out of `size` may lie: the view's centre, else above or below it by up to
  // three eighths of the view's height (an odd count's lone box at the bottom leaves room
  // between the two at the top), nearest first. Never to a side: the spokes of the GPUs on the
  // far side would have to pass the near ones.
  auto keep_out_spots = [&](Vec2 size) {
    std::vector<Rect> spots;
    for (int i : {0, -1, 1, -2, 2, -3, 3}) {
      const Rect spot{view.centre().x - size.x * 0.5f, view.centre().y + view.h * 0.125f * static_cast<float>(i) - size.y * 0.5f,
                      size.x, size.y};
      if (spot.y >= view.y && spot.bottom() <= view.bottom()) spots.push_back(spot);
    }
    return spots;
  };
  Rect kept_out;  // where the last placement found room for the keep-out

  struct Candidate {
    int rows = 1, columns = 1;
    float exponent = 0.5f, aspect = 1.3f, cell_h = 0;
  };
  auto place = [&](const Candidate& c, float cell_h, std::vector<Rect>& out) -> bool {
    const float box_w = c.columns * cell_h * c.aspect + 2 * pad;
    const float box_h = title + c.rows * cell_h + 2 * pad;
    const float rx = view.w * 0.5f - box_w * 0.5f - margin;
    const float ry = view.h * 0.5f - box_h * 0.5f - margin;
    // Boxes are placed even when they cannot fit, so that a view too small for the smallest
    // cells (a big --ui-scale in a small window) still has one box per rank, overlapping.
    out.clear();
    for (const Vec2& p : ring_positions(view.centre(), std::max(rx, 0.0f), std::max(ry, 0.0f), ranks, c.exponent))
      out.push_back({std::round(p.x - box_w * 0.5f), std::round(p.y - box_h * 0.5f), box_w, box_h});
    if (rx < 0 || ry < 0) return false;
    if (centre_keep_out) {
      const auto free = [&](const Rect& spot) {
        return std::none_of(out.begin(), out.end(), [&](const Rect& box) { return box.overlaps(spot); });
      };
      const std::vector<Rect> spots = keep_out_spots(centre_keep_out(c.columns));
      const auto spot = std::find_if(spots.begin(), spots.end(), free);
      if (spot == spots.end()) return false;
      kept_out = *spot;
    }
    for (int i = 0; i < ranks; ++i)
      for (int j = i + 1; j < ranks; ++j)
        if (inflate(out[static_cast<std::size_t>(i)], arrow_room * 0.5f)
                .overlaps(inflate(out[static_cast<std::size_t>(j)], arrow_room * 0.5f)))
          return false;
    return true;
  };
  // The largest cells for which the boxes fit the view and keep room for the arrows.
  auto largest_cell = [&](const Candidate& c) {
    std::vector<Rect> scratch;
    float lo = 0.5f, hi = max_cell_h;
    if (!place(c, lo, scratch)) return lo;
    for (int i = 0; i < 24; ++i) {
      const float mid = 0.5f * (lo + hi);
      if (place(c, mid, scratch)) lo = mid;
      else hi = mid;
    }
    return lo;
  };

  // Try a few shapes (cell rows per box, squareness of the ring) and keep the one with the
  // biggest cells; a single row wins ties because a box then reads like a buffer.
  Candidate best;
  float best_area = -1;
  const int max_rows = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(slots)))) + 1;
  const int first_rows = pair_grid(ranks, slots) ? ranks : 1;
  const int last_rows = pair_grid(ranks, slots) ? ranks : std::min(slots, max_rows);
  for (int rows = first_rows; rows <= std::max(first_rows, last_rows); ++rows) {
    for (float exponent : {0.3f, 0.5f, 0.8f}) {
      Candidate c;
      c.rows = rows;
      c.columns = (std::max(slots, 1) + rows - 1) / rows;
      c.exponent = exponent;
      c.aspect = c.columns <= 4 ? 1.2f : 1.3f;
      c.cell_h = largest_cell(c);
      const float area = c.cell_h * c.cell_h * c.aspect;
      if (area > best_area * 1.04f) {
        best = c;
        best_area = area;
      }
    }
  }
  g.cell_rows = best.rows;
  g.cell_columns = best.columns;
  float cell_h = best.cell_h >= 4.0f ? std::floor(best.cell_h) : best.cell_h;
  std::vector<Rect> rects;
  g.fits = place(best, cell_h, rects);
  // Around a keep-out a smaller box may move onto it (the circle grows as the boxes shrink):
  // then the next whole pixel down, else the size the search found.
  for (int fewer = 1; centre_keep_out && !g.fits && fewer <= 8 && cell_h - 1.0f >= 4.0f; ++fewer)
    g.fits = place(best, cell_h -= 1.0f, rects);
  if (centre_keep_out && !g.fits) g.fits = place(best, cell_h = best.cell_h, rects);
  if (centre_keep_out && g.fits) g.kept_clear = kept_out;
  g.cell_height = cell_h;
  g.cell_width = cell_h >= 4.0f ? std::floor(cell_h * best.aspect) : cell_h * best.aspect;
  g.cell_gap = cell_h >= 10.0f ? std::max(2.0f, std::round(line_height * 0.2f)) : 0.0f;
  for (const Rect& rect : rects) {
    GpuBox gpu;
    gpu.box = rect;
    split_box(gpu, title, pad, g.cell_columns, g.cell_rows, g.cell_width, g.cell_height);
    g.boxes.push_back(gpu);
  }
  if (ranks >= 2) {
    const float bulge = ranks == 2 ? 0.28f : 0.12f;
    for (int r = 0; r < ranks; ++r)
      g.arrows.push_back(curved_arrow(g.boxes[static_cast<std::size_t>(r)].box,
                                      g.boxes[static_cast<std::size_t>((r + 1) % ranks)].box,
                                      bulge, std::max(4.0f, line_height * 0.35f)));
    // Walked the other way the same curve bows toward the centre: the counter-clockwise ring
    // runs inside the clockwise one. Two GPUs' clockwise arrows already go both ways.
    for (int r = 0; r < ranks && ranks > 2; ++r)
      g.back_arrows.push_back(curved_arrow(g.boxes[static_cast<std::size_t>(r)].box,
                                           g.boxes[static_cast<std::size_t>((r + ranks - 1) % ranks)].box,
                                           bulge, std::max(4.0f, line_height * 0.35f)));
  }
  return g;
}

RingGeometry layout_grid(Rect view, int ranks, float line_height, int slots) {
  RingGeometry g;
  g.grid = true;
  g.ranks = ranks;
  g.slots = slots;
  choose_cell_grid(slots, g.cell_columns, g.cell_rows);
  const float gap = std::clamp(std::round(line_height * 0.9f), 8.0f, 20.0f);
  // The outer margin on the left and below carries the edge that closes the ring.
  const Rect area{view.x + gap * 1.5f, view.y + gap * 0.5f, view.w - gap * 2.0f, view.h - gap * 2.0f};
  const float pad = 2.0f;

  int best_columns = 1;
  float best_cell = 0, best_title = 0;
  for (int columns = 1; columns <= ranks; ++columns) {
    const int rows = (ranks + columns - 1) / columns;
    const float box_w = (area.w - (columns - 1) * gap) / columns;
    const float box_h = (area.h - (rows - 1) * gap) / rows;
    if (box_w <= 2 * pad || box_h <= 2 * pad) continue;
    // A title only where the box is tall enough for one line and some cells.
    const float title = box_h >= line_height * 3.0f ? std::round(line_height * 1.15f) : 0.0f;
    const float cell = std::min((box_w - 2 * pad) / g.cell_columns,
                                (box_h - title - 2 * pad) / g.cell_rows);
    if (cell > best_cell) {
      best_cell = cell;
      best_columns = columns;
      best_title = title;
    }
  }
  const float cell = best_cell >= 4.0f ? std::floor(best_cell) : best_cell;
  g.fits = cell >= 1.0f;  // below a pixel a cell is not drawn at all
  g.cell_width = g.cell_height = cell;
  g.cell_gap = cell >= 10.0f ? 1.0f : 0.0f;
  const int columns = best_columns;
  const int rows = (ranks + columns - 1) / columns;
  const float box_w = g.cell_columns * cell + 2 * pad;
  const float box_h = best_title + g.cell_rows * cell + 2 * pad;
  const float used_w = columns * box_w + (columns - 1) * gap;
  const float used_h = rows * box_h + (rows - 1) * gap;
  const float x0 = std::round(area.x + (area.w - used_w) * 0.5f);
  const float y0 = std::round(area.y + (area.h - used_h) * 0.5f);
  for (int r = 0; r < ranks; ++r) {
    const int row = r / columns;
    const int along = r % columns;
    const int column = row % 2 == 0 ? along : columns - 1 - along;  // serpentine
    GpuBox gpu;
    gpu.box = {std::round(x0 + column * (box_w + gap)), std::round(y0 + row * (box_h + gap)), box_w, box_h};
    split_box(gpu, best_title, pad, g.cell_columns, g.cell_rows, g.cell_width, g.cell_height);
    g.boxes.push_back(gpu);
  }
  const float m = 2.0f;  // keep arrow ends off the box borders
  for (int r = 0; r + 1 < ranks; ++r) {
    const Rect& a = g.boxes[static_cast<std::size_t>(r)].box;
    const Rect& b = g.boxes[static_cast<std::size_t>(r + 1)].box;
    const float cy = a.y + a.h * 0.5f;
    if (std::fabs(a.y - b.y) < 0.5f) {
      const bool rightward = b.x > a.x;
      g.arrows.push_back(make_path({{rightward ? a.right() + m : a.x - m, cy},
                                    {rightward ? b.x - m : b.right() + m, cy}}));
    } else {
      const float cx = a.x + a.w * 0.5f;
      g.arrows.push_back(make_path({{cx, a.bottom() + m}, {cx, b.y - m}}));
    }
  }
  // Closing edge: down out of the last box, left along the bottom, up the left side, into GPU 0.
  const Rect& last = g.boxes.back().box;
  const Rect& first = g.boxes.front().box;
  const float below = y0 + used_h + gap * 0.6f;
  const float left = x0 - gap * 0.75f;
  g.arrows.push_back(make_path({{last.x + last.w * 0.5f, last.bottom() + m},
                                {last.x + last.w * 0.5f, below},
                                {left, below},
                                {left, first.y + first.h * 0.5f},
                                {first.x - m, first.y + first.h * 0.5f}}));
  // Counter-clockwise: each clockwise arrow walked backwards, shifted to its side by a third
  // of the gap, so that the two directions of a link run side by side.
  if (ranks > 2)
    for (int r = 0; r < ranks; ++r)
      g.back_arrows.push_back(reversed_beside(g.arrows[static_cast<std::size_t>((r + ranks - 1) % ranks)], gap / 3.0f));
  return g;
}

}  // namespace

Vec2 ArrowPath::at(float t) const {
  if (points.empty()) return {};
  if (points.size() == 1 || total() <= 0) return points.front();
  const float target = std::clamp(t, 0.0f, 1.0f) * total();
  std::size_t i = 1;
  while (i + 1 < lengths.size() && lengths[i] < target) ++i;
  const float span = lengths[i] - lengths[i - 1];
  const float u = span > 0 ? (target - lengths[i - 1]) / span : 0.0f;
  return points[i - 1] + (points[i] - points[i - 1]) * u;
}

Vec2 ArrowPath::direction_at(float t) const {
  const Vec2 a = at(std::max(0.0f, t - 0.01f));
  const Vec2 b = at(std::min(1.0f, t + 0.01f));
  const Vec2 d = b - a;
  const float length = d.length();
  return length > 0 ? d * (1.0f / length) : Vec2{1, 0};
}

Rect RingGeometry::cell(int rank, int slot) const {
  const GpuBox& gpu = boxes[static_cast<std::size_t>(rank)];
  const int column = slot % cell_columns;
  const int row = slot / cell_columns;
  return {gpu.cells.x + column * cell_width, gpu.cells.y + row * cell_height, cell_width, cell_height};
}

Rect RingGeometry::painted_cell(int rank, int slot) const { return cell(rank, slot).inset(cell_gap * 0.5f); }

RingGeometry layout_ring(Rect view, int ranks, float line_height, int slots, const KeepOut& centre_keep_out) {
  if (slots <= 0) slots = ranks;
  if (ranks > kMaxCircleRanks) return layout_grid(view, ranks, line_height, slots);
  return layout_circle(view, ranks, line_height, slots, centre_keep_out);
}

// Where the segment from the centre of `box` toward `towards` leaves the box.
Vec2 box_exit(const Rect& box, Vec2 towards) {
  const Vec2 c = box.centre();
  const Vec2 d = towards - c;
  const float tx = std::fabs(d.x) > 1e-3f ? box.w * 0.5f / std::fabs(d.x) : 1e9f;
  const float ty = std::fabs(d.y) > 1e-3f ? box.h * 0.5f / std::fabs(d.y) : 1e9f;
  return c + d * std::min(1.0f, std::min(tx, ty));
}

const ArrowPath* ring_arrow(const RingGeometry& geometry, int src, int dst) {
  const int n = geometry.ranks;
  if (n < 2 || src < 0 || src >= n) return nullptr;
  const auto index = static_cast<std::size_t>(src);
  if (dst == (src + 1) % n && index < geometry.arrows.size()) return &geometry.arrows[index];
  if (dst == (src + n - 1) % n && index < geometry.back_arrows.size()) return &geometry.back_arrows[index];
  return nullptr;
}

ArrowPath transfer_path(const RingGeometry& geometry, int src, int dst) {
  const Rect& from = geometry.boxes[static_cast<std::size_t>(src)].box;
  const Rect& to = geometry.boxes[static_cast<std::size_t>(dst)].box;
  const Vec2 a = box_exit(from, to.centre()), b = box_exit(to, from.centre());
  const Vec2 d = b - a;
  const float length = std::max(1.0f, d.length());
  const Vec2 left{d.y / length, -d.x / length};
  const Vec2 control = (a + b) * 0.5f + left * (0.14f * length);
  std::vector<Vec2> points;
  for (int k = 0; k <= 20; ++k) {
    const float t = static_cast<float>(k) / 20.0f, u = 1 - t;
    points.push_back(a * (u * u) + control * (2 * u * t) + b * (t * t));
  }
  return make_path(std::move(points));
}

}  // namespace ringviz::gui
