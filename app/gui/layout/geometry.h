#pragma once
#include <algorithm>
#include <cmath>

namespace ringviz::gui {

// Screen-space geometry in framebuffer pixels, y down (ImGui's convention). Plain structs so
// that layout code is testable without ImGui.
struct Vec2 {
  float x = 0, y = 0;
  Vec2 operator+(Vec2 o) const { return {x + o.x, y + o.y}; }
  Vec2 operator-(Vec2 o) const { return {x - o.x, y - o.y}; }
  Vec2 operator*(float s) const { return {x * s, y * s}; }
  float length() const { return std::sqrt(x * x + y * y); }
};

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  Vec2 min() const { return {x, y}; }
  Vec2 max() const { return {x + w, y + h}; }
  Vec2 centre() const { return {x + w * 0.5f, y + h * 0.5f}; }
  bool contains(Vec2 p) const { return p.x >= x && p.x < x + w && p.y >= y && p.y < y + h; }
  Rect inset(float d) const { return {x + d, y + d, std::max(0.0f, w - 2 * d), std::max(0.0f, h - 2 * d)}; }
  bool overlaps(const Rect& o) const {
    return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
  }
};

}  // namespace ringviz::gui
