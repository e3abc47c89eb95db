#include "app/gui/layout/switch_geometry.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace ringviz::gui {

namespace {

bool touches_a_gpu(const RingGeometry& ring, const Rect& box, float margin) {
  const Rect grown{box.x - margin, box.y - margin, box.w + 2 * margin, box.h + 2 * margin};
  return std::any_of(ring.boxes.begin(), ring.boxes.end(), [&](const GpuBox& gpu) { return gpu.box.overlaps(grown); });
}

// How far the segment a-b passes from `box`: 0 where it touches or crosses it.
float segment_clearance(Vec2 a, Vec2 b, const Rect& box) {
  // Clip the segment against the box (Liang-Barsky): any part inside means a crossing.
  float t0 = 0, t1 = 1;
  const Vec2 d = b - a;
  const float p[4] = {-d.x, d.x, -d.y, d.y};
  const float q[4] = {a.x - box.x, box.right() - a.x, a.y - box.y, box.bottom() - a.y};
  bool crosses = true;
  for (int i = 0; i < 4 && crosses; ++i) {
    if (std::fabs(p[i]) < 1e-6f) {
      crosses = q[i] >= 0;
    } else {
      const float t = q[i] / p[i];
      if (p[i] < 0) t0 = std::max(t0, t);
      else t1 = std::min(t1, t);
      crosses = t0 <= t1;
    }
  }
  if (crosses) return 0.0f;
  // Apart: the nearest pair is an end of the segment and the box, or a corner and the segment.
  auto to_box = [&](Vec2 v) {
    const float dx = std::max({box.x - v.x, 0.0f, v.x - box.right()});
    const float dy = std::max({box.y - v.y, 0.0f, v.y - box.bottom()});
    return std::sqrt(dx * dx + dy * dy);
  };
  auto to_segment = [&](Vec2 v) {
    const float length2 = d.x * d.x + d.y * d.y;
    const float t = length2 > 0 ? std::clamp(((v.x - a.x) * d.x + (v.y - a.y) * d.y) / length2, 0.0f, 1.0f) : 0.0f;
    return (a + d * t - v).length();
  };
  return std::min({to_box(a), to_box(b), to_segment(box.min()), to_segment(box.max()),
                   to_segment({box.right(), box.y}), to_segment({box.x, box.bottom()})});
}

// Where the segment from `outside` to `inside` (a point in `box`) first meets the box's edge.
Vec2 box_entry(const Rect& box, Vec2 outside, Vec2 inside) {
  const Vec2 d = inside - outside;
  float t = 0;
  if (d.x > 1e-6f && outside.x < box.x) t = std::max(t, (box.x - outside.x) / d.x);
  if (d.x < -1e-6f && outside.x > box.right()) t = std::max(t, (box.right() - outside.x) / d.x);
  if (d.y > 1e-6f && outside.y < box.y) t = std::max(t, (box.y - outside.y) / d.y);
  if (d.y < -1e-6f && outside.y > box.bottom()) t = std::max(t, (box.bottom() - outside.y) / d.y);
  return outside + d * std::min(t, 1.0f);
}

using Line = std::pair<Vec2, Vec2>;

// Where the middle line of each GPU's pair of spokes runs: from the edge of its box to the edge
// of the switch `box`, clear of every other GPU box (titles included: they are inside the box)
// by `wanted`, since the markers of the pipelined view ride the spokes in lanes and would
// otherwise cover another GPU's title.
struct SpokeRoutes {
  const RingGeometry& ring;
  Rect box;
  float wanted;  // how far a line keeps from the other GPUs' boxes
  float enough;  // a line this long carries full-size markers: a longer one only turns further
  std::vector<Vec2> targets;  // where a line that cannot aim at the centre may aim instead

  // `inset`: the targets lie that far inside the switch's edge, so that both ways of a pair
  // land on the edge rather than past a corner.
  SpokeRoutes(const RingGeometry& ring_, const Rect& box_, float inset, float wanted_, float enough_)
      : ring(ring_), box(box_), wanted(wanted_), enough(enough_) {
    const Rect inner = box.inset(std::min(inset, std::min(box.w, box.h) * 0.5f));
    constexpr int kPerSide = 32;
    for (int i = 0; i <= kPerSide; ++i) {
      const float f = static_cast<float>(i) / kPerSide;
      targets.push_back({inner.x + inner.w * f, inner.y});
      targets.push_back({inner.x + inner.w * f, inner.bottom()});
      targets.push_back({inner.x, inner.y + inner.h * f});
      targets.push_back({inner.right(), inner.y + inner.h * f});
    }
  }

  const Rect& own(int rank) const { return ring.boxes[static_cast<std::size_t>(rank)].box; }

  Line line_to(int rank, Vec2 target) const {
    return {box_exit(own(rank), target), box_entry(box, own(rank).centre(), target)};
  }

  float clearance(int rank, const Line& line) const {
    float nearest = 1e9f;
    for (int other = 0; other < ring.ranks; ++other)
      if (other != rank) nearest = std::min(nearest, segment_clearance(line.first, line.second, own(other)));
    return nearest;
  }

  // Whether some line from GPU `rank` keeps `wanted` clear (what the switch's size is chosen by).
  bool can_clear(int rank) const {
    if (clearance(rank, line_to(rank, box.centre())) >= wanted) return true;
    return std::any_of(targets.begin(), targets.end(),
                       [&](Vec2 target) { return clearance(rank, line_to(rank, target)) >= wanted; });
  }

  // GPU `rank`'s line: at the switch's centre where that is clear. Where it is not (eight GPUs on
  // a wide screen: the line from a corner GPU to the centre grazes the GPU below or above the
  // switch), the longest clear line (up to `enough`, then the least turned) into the switch's
  // quarter on the GPU's side, `wanted` short of its middle lines, so that the spokes of two
  // GPUs never cross; else the least turned clear line; else the one farthest from the others.
  Line choose(int rank) const {
    const Vec2 from = own(rank).centre(), middle = box.centre();
    const Line natural = line_to(rank, middle);
    const float natural_clearance = clearance(rank, natural);
    if (natural_clearance >= wanted) return natural;
    // A GPU within `wanted` of one of the switch's middle lines may come in on either side of it.
    auto on_its_side = [&](Vec2 at) {
      auto side_ok = [&](float gpu, float centre, float point) {
        if (std::fabs(gpu - centre) < wanted) return true;
        return gpu < centre ? point <= centre - wanted : point >= centre + wanted;
      };
      return side_ok(from.x, middle.x, at.x) && side_ok(from.y, middle.y, at.y);
    };
    auto turn = [&](Vec2 target) {  // how far the aim turns from the switch's centre, in radians
      const Vec2 n = middle - from, d = target - from;
      return std::fabs(std::atan2(n.x * d.y - n.y * d.x, n.x * d.x + n.y * d.y));
    };
    Line best = natural, clear = natural, safest = natural;
    float best_length = -1, best_turn = 0, clear_turn = -1, safest_clearance = natural_clearance;
    for (const Vec2& target : targets) {
      const Line line = line_to(rank, target);
      const float kept = clearance(rank, line);
      if (kept > safest_clearance) {
        safest = line;
        safest_clearance = kept;
      }
      if (kept < wanted) continue;
      const float turned = turn(target);
      if (clear_turn < 0 || turned < clear_turn) {
        clear = line;
        clear_turn = turned;
      }
      if (!on_its_side(line.second)) continue;
      const float length = std::min((line.second - line.first).length(), enough);
      if (length > best_length || (length == best_length && turned < best_turn)) {
        best = line;
        best_length = length;
        best_turn = turned;
      }
    }
    return best_length >= 0 ? best : clear_turn >= 0 ? clear : safest;
  }
};

// A straight spoke along `line`, shifted sideways by `offset` so that the way in and the way
// out are two lines.
ArrowPath spoke(const Line& line, float offset) {
  const Vec2 d = line.second - line.first;
  const float length = d.length();
  const Vec2 side = length > 0 ? Vec2{-d.y / length, d.x / length} * offset : Vec2{};
  return make_path({line.first + side, line.second + side});
}

// The smallest switch: a line's room around it for the spokes' heads (0.75 lines) and cells 0.8
// lines tall (layout_switch's second pass, and what layout_ring_with_switch keeps clear).
constexpr float kTightSwitchMargin = 1.0f;
constexpr float kTightSwitchCell = 0.8f;

// The switch's measures for a GPU grid of `columns` cells (and so `rows` of the N slots): the
// box's padding and the gap between its cells, the room kept around it for the spokes' heads, and
// its smallest size (cells 1.5 lines wide and 1.2 tall under the title).
struct SwitchMeasures {
  float pad, gap, margin, narrowest;
  int columns, rows;
  SwitchMeasures(int columns_, int ranks, float line_height)
      : pad(std::round(line_height * 0.3f)),
        gap(std::max(1.0f, std::round(line_height * 0.15f))),
        margin(line_height * 1.5f),
        narrowest(0),
        columns(std::max(1, columns_)),
        rows(std::max(1, (ranks + std::max(1, columns_) - 1) / std::max(1, columns_))) {
    narrowest = 2 * pad + static_cast<float>(columns) * line_height * 1.5f;
  }
  float height(float line_height, float cell_h) const {
    return std::round(line_height + 3 * pad + static_cast<float>(rows) * cell_h + static_cast<float>(rows - 1) * gap);
  }
};

}  // namespace

SwitchGeometry layout_switch(const RingGeometry& ring, const Rect& view, float line_height) {
  SwitchGeometry geometry;
  const int n = ring.ranks;
  if (ring.grid || n < 2 || static_cast<int>(ring.boxes.size()) != n) return geometry;
  // Where layout_ring kept room for it, else the middle of the GPUs' extent, which is the
  // circle's (with an odd count their mean lies toward the side with more of them).
  Rect extent = ring.boxes.front().box;
  for (const GpuBox& gpu : ring.boxes) {
    const float right = std::max(extent.right(), gpu.box.right()), bottom = std::max(extent.bottom(), gpu.box.bottom());
    extent.x = std::min(extent.x, gpu.box.x);
    extent.y = std::min(extent.y, gpu.box.y);
    extent.w = right - extent.x;
    extent.h = bottom - extent.y;
  }
  const Vec2 centre = ring.kept_clear.w > 0 ? ring.kept_clear.centre() : extent.centre();
  // The cells in the GPUs' own grid of slots (columns x rows), so that slot j sits where it sits
  // in every GPU's box. The box is as tall as its title and cells need: cells of 2.6 lines (a
  // label over the sum's stripes) where the middle has room, down to 1.2 lines; as wide as fits.
  const SwitchMeasures measures(ring.cell_columns, n, line_height);
  const int columns = measures.columns, rows = measures.rows;
  const float pad = measures.pad, gap = measures.gap, margin = measures.margin;  // margin: the spokes' heads
  const float widest = std::min(view.w * 0.6f, line_height * 8.0f * static_cast<float>(columns));
  const float narrowest = measures.narrowest;
  const float offset = line_height * 0.3f;  // each way of a pair from their middle line
  // Clear of other GPUs by the pair's half width and a marker lane either side of it.
  const float wanted = offset + kSpokeMarkerReach * line_height;
  const float enough = line_height * 8.0f;  // a train of four full-size markers
  const float inset = offset + pad;
  // The largest box that touches no GPU and from which every GPU has a clear spoke; where no
  // size gives every GPU one, the largest that touches no GPU. First with room for the spokes'
  // heads and cells of at least 1.2 lines; then, for a middle too short for that (presenting
  // at 1280x720), with a line's room and cells down to 0.8 lines, which still show the sum.
  struct Pass {
    float margin, tallest_cell, shortest_cell;
  };
  const Pass passes[] = {{margin, line_height * 2.6f, line_height * 1.2f},
                         {line_height * kTightSwitchMargin, line_height * 1.2f, line_height * kTightSwitchCell}};
  std::optional<Rect> found, apart;
  for (const Pass& pass : passes) {
    // Each size 15% (the width 6%) below the last, down to the smallest itself, which is the
    // size layout_ring_with_switch keeps room for.
    const auto shrink = [](float size, float factor, float smallest) {
      return size > smallest ? std::max(smallest, std::floor(size * factor)) : -1.0f;
    };
    for (float cell_h = pass.tallest_cell; !found && cell_h > 0; cell_h = shrink(cell_h, 0.85f, pass.shortest_cell)) {
      const float height = measures.height(line_height, cell_h);
      for (float width = std::max(widest, narrowest); !found && width > 0; width = shrink(width, 0.94f, narrowest)) {
        const Rect box{std::round(centre.x - width * 0.5f), std::round(centre.y - height * 0.5f), std::round(width), height};
        if (touches_a_gpu(ring, box, pass.margin)) continue;
        if (!apart) apart = box;
        const SpokeRoutes routes(ring, box, inset, wanted, enough);
        bool every_clear = true;
        for (int rank = 0; rank < n && every_clear; ++rank) every_clear = routes.can_clear(rank);
        if (every_clear) found = box;
      }
    }
    if (found) break;
  }
  geometry.clear = found.has_value();
  if (!found) found = apart;
  if (!found) return geometry;
  const Rect box = *found;
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
  const SpokeRoutes routes(ring, box, inset, wanted, enough);
  for (int rank = 0; rank < n; ++rank) {
    const Line line = routes.choose(rank);
    geometry.up.push_back(spoke(line, offset));
    geometry.down.push_back(spoke({line.second, line.first}, offset));
    geometry.room.push_back(std::max(0.0f, routes.clearance(rank, line) - offset));
  }
  return geometry;
}

RingWithSwitch layout_ring_with_switch(const Rect& view, int ranks, float line_height) {
  RingWithSwitch plain{layout_ring(view, ranks, line_height), {}};
  plain.in_switch = layout_switch(plain.ring, view, line_height);
  if (plain.ring.grid || !plain.ring.fits || (plain.in_switch.fits && plain.in_switch.clear)) return plain;
  // Keep the middle clear for the smallest switch of the ring's cell grid and its spokes' heads
  // (the tight pass of layout_switch),
  // then a larger middle (smaller GPU boxes further out, so wider gaps between them for the
  // spokes) until every spoke is clear or the GPUs no longer fit.
  // Failing that, a switch whose spokes at least keep off the other boxes (their markers
  // shrink to the room they have).
  const auto apart = [](const SwitchGeometry& in_switch) {
    return in_switch.fits && std::all_of(in_switch.room.begin(), in_switch.room.end(), [](float room) { return room > 0; });
  };
  std::optional<RingWithSwitch> fitting;
  if (apart(plain.in_switch)) fitting = plain;
  for (float grow = 1.0f; grow < 4.0f; grow *= 1.12f) {
    const KeepOut keep_out = [&](int columns) {
      const SwitchMeasures measures(columns, ranks, line_height);
      const float margin = line_height * kTightSwitchMargin;
      return Vec2{(measures.narrowest + 2 * margin + 2) * grow,
                  (measures.height(line_height, line_height * kTightSwitchCell) + 2 * margin + 2) * grow};
    };
    RingWithSwitch roomier{layout_ring(view, ranks, line_height, ranks, keep_out), {}};
    if (!roomier.ring.fits) break;
    roomier.in_switch = layout_switch(roomier.ring, view, line_height);
    if (roomier.in_switch.fits && roomier.in_switch.clear) return roomier;
    if (apart(roomier.in_switch) && !fitting) fitting = roomier;
  }
  return fitting ? *fitting : plain;
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
