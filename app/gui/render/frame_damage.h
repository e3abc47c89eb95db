#pragma once
// Redrawing only what changed since the last frame, for framebuffers that keep their pixels
// between frames (the headless hosts' offscreen target). On a software rasteriser (llvmpipe)
// almost all of a frame's time is filling pixels, and while the ring plays most panels draw
// exactly what they drew a frame ago (docs/architecture.md, "Frame time").
#include <cstdint>
#include <string>
#include <vector>

struct ImDrawData;
struct ImDrawCmd;

namespace ringviz::gui {

// Framebuffer pixels, top-down, half-open: columns [x0, x1), rows [y0, y1).
struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  bool overlaps(const PixelRect& other) const {
    return !empty() && !other.empty() && x0 < other.x1 && other.x0 < x1 && y0 < other.y1 && other.y0 < y1;
  }
  PixelRect united(const PixelRect& other) const;
  PixelRect intersected(const PixelRect& other) const;
  bool operator==(const PixelRect&) const = default;
};

// The pixels ImGui's OpenGL3 backend lets a command with this clip rectangle touch (its
// scissor box, computed as the backend computes it), for a display at (0, 0), scale 1.
PixelRect scissor_pixels(float left, float top, float right, float bottom, int framebuffer_height);

// What one draw list drew: where (the union of its commands' scissor boxes, or of what its
// callbacks say they cover) and a hash of everything that decides its pixels.
struct ListFootprint {
  std::string owner;  // the window that filled it; lists are matched across frames by it
  PixelRect bounds;
  std::uint64_t content = 0;
  bool operator==(const ListFootprint&) const = default;
};

// Callbacks that draw by themselves (BackgroundFills, CellRenderer) tell what they cover and
// what decides their pixels; a callback nobody describes makes the whole frame count as changed.
struct CallbackFootprint {
  PixelRect bounds;
  std::uint64_t content = 0;
};

// Merges overlapping rectangles until none overlap; returns at most `limit` rectangles
// (beyond that, their bounding box).
std::vector<PixelRect> merge_rects(std::vector<PixelRect> rects, std::size_t limit);

// The rectangles to redraw, given the lists drawn last time and this frame's: every list that
// changed, appeared, moved or vanished, where it was and where it is now. A list that did not
// change is still redrawn inside those rectangles (it may lie under or over one that did).
std::vector<PixelRect> changed_rects(const std::vector<ListFootprint>& before, const std::vector<ListFootprint>& now);

// Draws ImGui's frame into a framebuffer that still holds the last frame this object drew:
// clears and redraws only the changed rectangles, or everything when asked to, when the size
// or the clear colour changed, or when a callback cannot be described.
class FrameDamage {
 public:
  // The next draw() redraws the whole frame (fonts rebuilt, the target replaced).
  void invalidate() { valid_ = false; }
  // Draws `data` into the bound framebuffer of width x height pixels on `clear` (RGB, 0..1).
  // Returns the pixels redrawn (width x height when whole).
  std::int64_t draw(ImDrawData& data, int width, int height, const float clear[3]);

 private:
  std::vector<ListFootprint> footprints(const ImDrawData& data, int height, bool& describable) const;
  std::vector<ListFootprint> last_;
  int width_ = 0, height_ = 0;
  float clear_[3] = {};
  std::uint64_t atlas_ = 0;
  bool valid_ = false;
};

// The callbacks that draw themselves (BackgroundFills, CellRenderer) keep their scissor inside
// this while FrameDamage redraws one rectangle; null while a whole frame is drawn.
const PixelRect* damage_limit();
// Narrows a GL scissor box (x, y from the bottom-left, width, height) to damage_limit().
void limit_scissor_to_damage(int box[4], int framebuffer_height);

}  // namespace ringviz::gui
