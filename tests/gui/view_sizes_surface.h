#pragma once
// The one GL context the in-process GUI tests draw with (view_sizes_main.cpp opens it).
#include "app/platform/headless_context.h"
#include "app/platform/offscreen_target.h"

namespace ringviz::gui {

struct TestSurface {
  platform::HeadlessContext context;
  platform::OffscreenTarget target;  // after the context: deleted while it lives
};

TestSurface& test_surface();

}  // namespace ringviz::gui
