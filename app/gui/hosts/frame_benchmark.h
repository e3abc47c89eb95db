#pragma once
#include <string>
#include <vector>

#include "app/gui/hosts/headless_surface.h"
#include "core/model/config.h"

namespace ringviz::gui {

class GuiApp;

// `ringviz --headless --bench-frames N`: for each ring size in `ranks`, three rows of N frames
// (paused; playing with every pixel redrawn; playing, redrawing what changed), timed and
// printed as a table: the median and 99th percentile of the CPU time that builds and submits a
// frame, of the GPU wait that follows, and of both.
struct FrameBenchmark {
  int frames = 0;
  std::vector<int> ranks;
  bool count_given = false;  // keep the configured count; otherwise at least one element a GPU
};
HostStatus run_frame_benchmark(HeadlessSurface& surface, FrameHost& frames, GuiApp& app, const Config& base,
                               const FrameBenchmark& benchmark);

}  // namespace ringviz::gui
