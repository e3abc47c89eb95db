#include "app/platform/offscreen_target.h"

#include <cstring>

#include "app/platform/gl.h"
#include "core/output/output_file.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

namespace ringviz::platform {

OffscreenTarget::~OffscreenTarget() {
  if (framebuffer_ != 0) glDeleteFramebuffers(1, &framebuffer_);
  if (colour_ != 0) glDeleteRenderbuffers(1, &colour_);
}

bool OffscreenTarget::resize(int width, int height, std::string& error) {
  if (width == width_ && height == height_ && framebuffer_ != 0) return true;
  if (framebuffer_ == 0) glGenFramebuffers(1, &framebuffer_);
  if (colour_ == 0) glGenRenderbuffers(1, &colour_);
  // Until this size is allocated and complete the target has none: a failure must not leave
  // the old size claimed over storage that is gone.
  width_ = 0;
  height_ = 0;
  for (int i = 0; i < 32 && glGetError() != GL_NO_ERROR; ++i) {
  }  // earlier errors are not this allocation's
  glBindRenderbuffer(GL_RENDERBUFFER, colour_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  // A size past GL_MAX_RENDERBUFFER_SIZE is refused with an error and leaves the old storage,
  // which would still make a complete framebuffer of the wrong size.
  const GLenum storage_error = glGetError();
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (storage_error != GL_NO_ERROR) {
    error = "the driver refused an offscreen colour buffer of " + size + " (GL error " +
            std::to_string(storage_error) + "); try a smaller --size";
    return false;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    error = "the offscreen framebuffer of " + size + " is incomplete (status " + std::to_string(status) +
            "); try a smaller --size";
    return false;
  }
  width_ = width;
  height_ = height;
  return true;
}

void OffscreenTarget::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_); }

std::vector<std::uint8_t> OffscreenTarget::read_rgba() const {
  const std::size_t row = static_cast<std::size_t>(width_) * 4;
  std::vector<std::uint8_t> bottom_up(row * static_cast<std::size_t>(height_));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  std::vector<std::uint8_t> top_down(bottom_up.size());
  for (int y = 0; y < height_; ++y)
    std::memcpy(top_down.data() + static_cast<std::size_t>(y) * row,
                bottom_up.data() + static_cast<std::size_t>(height_ - 1 - y) * row, row);
  // The window background is opaque; force alpha so viewers do not show a checkerboard.
  for (std::size_t i = 3; i < top_down.size(); i += 4) top_down[i] = 255;
  return top_down;
}

namespace {

void append_bytes(void* context, void* data, int size) {
  const auto* bytes = static_cast<const char*>(data);
  static_cast<std::string*>(context)->append(bytes, static_cast<std::size_t>(size));
}

}  // namespace

bool write_png(const std::string& path, int width, int height,
               const std::vector<std::uint8_t>& rgba, std::string& error) {
  // Encoded in memory first: stb's own file writer does not report a failed write.
  std::string png;
  if (!stbi_write_png_to_func(append_bytes, &png, width, height, 4, rgba.data(), width * 4)) {
    error = "cannot encode " + path + " as PNG";
    return false;
  }
  return write_output_file(path, png, error);
}

}  // namespace ringviz::platform
