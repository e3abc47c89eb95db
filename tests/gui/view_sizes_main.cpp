// Runs the in-process GUI tests in one GL context (a hidden window on a display, EGL
// surfaceless without one), or reports them skipped (exit 77) where there is no context.
#include <doctest/doctest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "view_sizes_surface.h"

namespace ringviz::gui {

namespace {
std::unique_ptr<TestSurface> g_surface;
}  // namespace

TestSurface& test_surface() { return *g_surface; }

}  // namespace ringviz::gui

int main(int argc, char** argv) {
  using ringviz::gui::g_surface;
  g_surface = std::make_unique<ringviz::gui::TestSurface>();
  std::string why;
  if (!ringviz::platform::open_headless_context(g_surface->context, why)) {
    std::printf("SKIPPED: no OpenGL context here:\n%s\n", why.c_str());
    return 77;
  }
  doctest::Context context(argc, argv);
  const int result = context.run();
  g_surface.reset();
  return result;
}
