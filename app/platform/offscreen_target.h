#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ringviz::platform {

// A framebuffer object with one RGBA8 colour attachment: what headless frames are drawn into
// (a hidden window's default framebuffer has undefined contents, an EGL surfaceless context
// has none). Needs a current GL 3.3 context for its whole life.
class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  // (Re)allocates the colour buffer; false with `error` set when the driver refuses the size
  // (the target then has no size: the next resize() allocates again, whatever the size).
  bool resize(int width, int height, std::string& error);
  void bind() const;  // as the draw and read framebuffer
  unsigned framebuffer() const { return framebuffer_; }  // 0 until the first resize()
  int width() const { return width_; }
  int height() const { return height_; }
  // The colour buffer as RGBA rows, top row first (GL reads bottom-up; PNGs are top-down).
  std::vector<std::uint8_t> read_rgba() const;

 private:
  unsigned framebuffer_ = 0;
  unsigned colour_ = 0;
  int width_ = 0;
  int height_ = 0;
};

// Writes RGBA rows (top row first) as a PNG, through an OutputFile (core/output/output_file.h);
// false with `error` saying why.
bool write_png(const std::string& path, int width, int height,
               const std::vector<std::uint8_t>& rgba, std::string& error);

}  // namespace ringviz::platform
