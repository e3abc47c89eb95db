#pragma once
#include <functional>
#include <vector>

#include "app/gui/layout/geometry.h"

namespace ringviz::gui {

// Where the ring view puts things: one box per GPU (title strip + a grid of its slot cells)
// and one arrow per ring edge r -> r+1. Up to kMaxCircleRanks GPUs sit on an ellipse; beyond
// that they fill a serpentine grid (left to right, then right to left on the next row) so
// that ring neighbours stay side by side, and the closing edge runs around the outside.
inline constexpr int kMaxCircleRanks = 16;

struct GpuBox {
  Rect box;
  Rect title;  // strip at the top for "GPU r"
  Rect cells;  // the cell grid
};

// A path sampled as a polyline, so that a packet can travel along it at constant speed.
struct ArrowPath {
  std::vector<Vec2> points;
  std::vector<float> lengths;  // cumulative, lengths[0] = 0
  float total() const { return lengths.empty() ? 0.0f : lengths.back(); }
  Vec2 at(float t) const;      // t in [0, 1] by arc length
  Vec2 direction_at(float t) const;
};

// A path through `points` with its arc lengths.
ArrowPath make_path(std::vector<Vec2> points);

struct RingGeometry {
  bool grid = false;
  // False when the view is too small for every box and its cells to fit inside it apart from
  // the others: the boxes are still there (overlapping), but the view shows a notice instead.
  bool fits = true;
  int ranks = 0;
  int slots = 0;  // cells per box: N, or N x N for an uneven AllToAll (row = sender, column = receiver)
  int cell_columns = 1;
  int cell_rows = 1;
  float cell_width = 0;
  float cell_height = 0;
  float cell_gap = 0;
  std::vector<GpuBox> boxes;
  // Where layout_ring kept the middle clear when asked to (empty otherwise): the view's centre,
  // or off it where the boxes leave no room there.
  Rect kept_clear;
  std::vector<ArrowPath> arrows;  // arrows[r]: from GPU r to GPU (r + 1) % N
  // back_arrows[r]: from GPU r to GPU (r - 1) % N, for an algorithm that sends round the ring
  // both ways (the bidirectional ring's counter-clockwise halves). Inside the clockwise arrows
  // on the circle, beside them in the grid; with two GPUs the clockwise arrows are both ways.
  std::vector<ArrowPath> back_arrows;

  // Pixel-aligned rectangle of one slot cell (gaps included: the shader leaves them empty).
  Rect cell(int rank, int slot) const;
  // The same minus the gap, i.e. what is actually painted.
  Rect painted_cell(int rank, int slot) const;
};

// line_height: the font's line height in pixels (titles and spacing scale with it). `slots`:
// cells per box, `ranks` when 0; N x N of them are laid out as an N-by-N grid, a sender per row.
// centre_keep_out, where given: the size of a rectangle in the middle of the view that no box
// of the circle may overlap (room for an NVSwitch, layout_ring_with_switch) for boxes of a
// given number of cell columns, at the centre or above or below it (`kept_clear` says where);
// the grid (more than kMaxCircleRanks GPUs) ignores it.
using KeepOut = std::function<Vec2(int cell_columns)>;
RingGeometry layout_ring(Rect view, int ranks, float line_height, int slots = 0, const KeepOut& centre_keep_out = {});

// The ring arrow a transfer rides (`arrows` or `back_arrows`), or null when src and dst are
// not ring neighbours.
const ArrowPath* ring_arrow(const RingGeometry& geometry, int src, int dst);

// Where the segment from the centre of `box` toward `towards` leaves the box.
Vec2 box_exit(const Rect& box, Vec2 towards);

// The path a transfer from GPU `src` to GPU `dst` takes in the ring view when they are not ring
// neighbours (naive, direct, rhd, the trees): from the edge of src's box to the edge of dst's,
// bowed to the left of its direction so that src -> dst and dst -> src are two curves and
// several transfers leaving one GPU fan out instead of piling on one line.
ArrowPath transfer_path(const RingGeometry& geometry, int src, int dst);

}  // namespace ringviz::gui
