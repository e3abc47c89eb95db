// Runs the render tests, or reports them skipped (exit 77) when this machine cannot give
// ringviz an OpenGL context at all: neither a display nor EGL.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>

#include "render_harness.h"

int main(int argc, char** argv) {
  std::string why;
  if (!ringviz::gui_test::rendering_available(why)) {
    std::printf("SKIPPED: ringviz cannot render here:\n%s\n", why.c_str());
    std::filesystem::remove_all(ringviz::gui_test::scratch_dir());
    return 77;
  }
  doctest::Context context(argc, argv);
  const int result = context.run();
  std::filesystem::remove_all(ringviz::gui_test::scratch_dir());
  return result;
}
