#pragma once
// Where the ring view draws an NVSwitch that reduces (NVLS): a box in the middle of the GPUs,
// one small cell per slot where the switch's sum is shown, and a spoke each way between every
// GPU and the switch, which the transfers of a schedule through the switch ride instead of the
// ring's arrows.
#include <vector>

#include "app/gui/layout/ring_geometry.h"

namespace ringviz::gui {

struct SwitchGeometry {
  bool fits = false;  // false: no room in the middle (the grid, two GPUs side by side)
  Rect box;           // the switch
  Rect title;         // "NVSwitch" across its top
  std::vector<Rect> cells;       // [slot]: the switch's sum of that slot
  std::vector<ArrowPath> up;     // [gpu]: from GPU r's box into the switch
  std::vector<ArrowPath> down;   // [gpu]: from the switch into GPU r's box
};

// The largest box centred on the GPUs' circle that touches no GPU box, at least two lines and
// a row of cells tall; `view` is the ring view's area.
SwitchGeometry layout_switch(const RingGeometry& ring, const Rect& view, float line_height);

}  // namespace ringviz::gui
