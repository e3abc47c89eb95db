#pragma once
// Showing parts of a GLX window's back buffer without swapping it (GLX_MESA_copy_sub_buffer).
// A swap leaves the back buffer undefined; a back buffer that is never swapped keeps its
// pixels, so a frame need only redraw what changed and copy just that to the window. On a
// software rasteriser that saves the whole-frame copy a kept framebuffer needs (about as
// costly there as drawing the frame; docs/architecture.md, "Frame time").
namespace ringviz::platform {

class GlxSubBufferCopy {
 public:
  // For the current context's drawable. False where the context is not GLX (EGL, Wayland) or
  // the GLX implementation lacks the extension. Nothing is linked: GLX is looked up in the
  // library GLFW already loaded.
  bool open();
  bool is_open() const { return copy_ != nullptr; }
  // Copies the back buffer's rectangle (x, y from the bottom-left, in pixels) to the window,
  // after an implicit glFlush; the back buffer keeps its pixels.
  void copy(int x, int y, int width, int height) const;
  // A back buffer that is never swapped does not follow the window's size: Mesa's software
  // GLX reads the size again only at a swap. One swap (showing what the back buffer held)
  // before a frame drawn whole lets it; the back buffer's pixels are undefined afterwards.
  void follow_window_size() const;

 private:
  using CopyFunction = void (*)(void* display, unsigned long drawable, int x, int y, int width, int height);
  using SwapFunction = void (*)(void* display, unsigned long drawable);
  void* display_ = nullptr;
  unsigned long drawable_ = 0;
  CopyFunction copy_ = nullptr;
  SwapFunction swap_ = nullptr;
};

// Whether the current context renders on the CPU (Mesa's llvmpipe, softpipe, swrast), where
// copying a whole frame costs about as much as drawing it.
bool software_renderer();

}  // namespace ringviz::platform
