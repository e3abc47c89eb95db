#pragma once
// What FrameDamage (render/frame_damage.h) and the draw callbacks that paint by themselves
// (BackgroundFills, CellRenderer) share: pixel rectangles, what a callback covers, and the
// rectangle being redrawn, which those callbacks keep their scissor inside.
#include <cstdint>

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

// Callbacks that draw by themselves (BackgroundFills, CellRenderer) tell what they cover and
// what decides their pixels; a callback nobody describes makes the whole frame count as changed.
struct CallbackFootprint {
  PixelRect bounds;
  std::uint64_t content = 0;
};

// The callbacks that draw themselves (BackgroundFills, CellRenderer) keep their scissor inside
// this while FrameDamage redraws one rectangle; null while a whole frame is drawn.
const PixelRect* damage_limit();
// Narrows a GL scissor box (x, y from the bottom-left, width, height) to damage_limit().
void limit_scissor_to_damage(int box[4], int framebuffer_height);

// Set by FrameDamage around the redraw of one rectangle; null again after it.
void set_damage_limit(const PixelRect* limit);

}  // namespace ringviz::gui
