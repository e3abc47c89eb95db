#pragma once
#include <cstdint>

namespace ringviz::gui {

// An 8-bit sRGB colour, the unit the palettes, the shader's palette buffer, the layout dump
// and the pixel tests all share (so a test can compare a pixel exactly).
struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

inline std::uint32_t to_imgui(Rgb c, std::uint8_t alpha = 255) {
  // ImGui's IM_COL32 layout: A in the high byte, R in the low byte.
  return (std::uint32_t{alpha} << 24) | (std::uint32_t{c.b} << 16) | (std::uint32_t{c.g} << 8) | c.r;
}

inline Rgb mix(Rgb a, Rgb b, float t) {
  auto lerp = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(static_cast<float>(x) + (static_cast<float>(y) - static_cast<float>(x)) * t + 0.5f);
  };
  return {lerp(a.r, b.r), lerp(a.g, b.g), lerp(a.b, b.b)};
}

// Relative luminance (0 black .. 1 white), to pick black or white text on a colour.
inline float luminance(Rgb c) {
  return (0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b) / 255.0f;
}

}  // namespace ringviz::gui
