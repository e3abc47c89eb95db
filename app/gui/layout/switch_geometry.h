#pragma once
// Where the ring view draws an NVSwitch that reduces (NVLS): a box in the middle of the GPUs,
// one small cell per slot where the switch's sum is shown, and a spoke each way between every
// GPU and the switch, which the transfers of a schedule through the switch ride instead of the
// ring's arrows.
#include <vector>

#include "app/gui/layout/ring_geometry.h"
#include "core/schedule/rounds.h"

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

// The spoke a transfer through the switch rides: a reducing transfer goes up its sender's spoke
// into the switch, a copy (the multicast) comes down its receiver's spoke out of it. The packets
// and the pipelined view's markers both ride it, so that neither travels from GPU to GPU.
const ArrowPath& switch_spoke(const SwitchGeometry& geometry, const Transfer& transfer);

// The path of a packet through the switch from `from` (the sending cell's centre) to `to` (the
// receiving cell's): its spoke, with the stretch inside the GPU's box. A reducing transfer ends
// at the switch's edge (the sum goes on from its cell once, which the lit spoke out shows); a
// copy starts at the edge (the owner's one send into the switch is its lit spoke in).
ArrowPath switch_packet_path(const SwitchGeometry& geometry, const Transfer& transfer, Vec2 from, Vec2 to);

}  // namespace ringviz::gui
