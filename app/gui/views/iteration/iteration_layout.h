#pragma once
// The Memory tab in `--dump-layout` (ringviz.layout/1, key "memory"): its mode and, in the
// whole-iteration mode, the numbers on screen, so tests check the pixels against the model.
#include <nlohmann/json.hpp>

#include "app/gui/views/iteration/memory_view.h"

namespace ringviz::gui {

nlohmann::json memory_layout_json(MemoryView& view);

}  // namespace ringviz::gui
