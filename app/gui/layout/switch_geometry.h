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
  bool fits = false;  // false: no room in the middle (the grid, or a ring laid out without room)
  // Every GPU's spoke keeps clear of the other GPUs' boxes by the pair's half width and the
  // markers' reach (else some spoke runs closer and its `room` shrinks the markers).
  bool clear = false;
  Rect box;           // the switch
  Rect title;         // "NVSwitch" across its top
  std::vector<Rect> cells;       // [slot]: the switch's sum of that slot
  std::vector<ArrowPath> up;     // [gpu]: from GPU r's box into the switch
  std::vector<ArrowPath> down;   // [gpu]: from the switch into GPU r's box
  // [gpu]: how far either of GPU r's spokes keeps from every other GPU's box (and so its
  // title), which the markers riding them must not reach past.
  std::vector<float> room;
};

// How far the pipelined view's markers reach to either side of a spoke, in lines: two channels'
// lanes, 1.2 sides apart, of square markers 1.3 lines wide (pipeline_overlay.cpp) that stay
// upright on a slanted spoke, so that a corner reaches half their diagonal from their centre.
inline constexpr float kSpokeMarkerReach = (0.6f + 0.71f) * 1.3f;

// The largest box centred where `ring` kept room for it (else on the GPUs' circle) that touches
// no GPU box, at least two lines and a row of cells tall (with room for the spokes' heads; where
// that does not fit, with a line's room and cells down to 0.8 lines), and from which every GPU
// has a spoke clear of the other GPUs' boxes by the pair's half width and kSpokeMarkerReach
// (where no size allows that, the largest box; `clear` says which);
// `view` is the ring view's area. A spoke aims at the switch's centre where that is clear;
// otherwise it takes the longest clear line into the switch's quarter on its GPU's side (so that
// two GPUs' spokes never cross), else the least turned clear line, else the one farthest from the
// other boxes, whose `room` then tells the markers to shrink.
SwitchGeometry layout_switch(const RingGeometry& ring, const Rect& view, float line_height);

// The ring of a schedule through a switch and its switch. The plain ring where the switch fits its
// middle with every spoke clear; else the ring laid out around a keep-out in the middle (the
// smallest switch for its cell grid, with room for the spokes' heads), grown until every spoke is
// clear; else the first of those that has a switch at all. Only where even that fails (a view too
// small for the GPUs around any switch) is there no switch and the view falls back to the ring's
// arrows.
struct RingWithSwitch {
  RingGeometry ring;
  SwitchGeometry in_switch;
};
RingWithSwitch layout_ring_with_switch(const Rect& view, int ranks, float line_height);

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
