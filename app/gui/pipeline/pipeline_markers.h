#pragma once
// Where the ring view puts the slices of one wave (docs/architecture.md, "The pipelined ring
// view"): every transfer of the wave is one marker on its link, all at once. The slices on a
// link ride as a train, each slice at a fixed place in it (slice 0 in front), so that the
// train grows while the pipeline fills and empties from the front while it drains; channels
// ride side by side as lanes across the arrow. Pure geometry: the layout dump and the tests
// read the same positions the view draws.
#include <vector>

#include "app/gui/layout/geometry.h"
#include "app/gui/layout/ring_geometry.h"
#include "app/gui/layout/switch_geometry.h"
#include "core/schedule/rounds.h"

namespace ringviz::gui {

// Channels drawn as lanes at once; more get a channel selector and one channel at a time.
inline constexpr int kMaxChannelLanes = 4;

struct PipelineMarker {
  int channel = 0;
  int round = 0;  // the lock-step round (0-based) the slice belongs to
  int slice = 0;
  int src = 0;
  int dst = 0;
  int slot = 0;         // the receiver's
  int source_slot = 0;  // the sender's (Transfer::source_slot: another only for AllToAll)
  TransferKind kind = TransferKind::copy;
  Rect box;
};

// The markers of wave `wave` (1-based) at `travel` (0: leaving, 1: arriving). `channel`: the
// one channel shown, or kAllChannels for every channel as its own lane. `size`: the side a
// marker has where its link leaves room; a short link shrinks its train to fit.
// `counter_clockwise`: the view draws the ring's back arrows, and slices sent to GPU r - 1 ride
// them (the bidirectional ring), each lane's channels side by side on its own arrow.
// `in_switch`: the switch drawn for a schedule through it (nvls), whose transfers ride its spokes
// as its packets do (switch_spoke: the sender's way in on a reducing round, the receiver's way
// out on the multicast), never an arrow between two GPUs; null draws the ring's links.
inline constexpr int kAllChannels = -1;
std::vector<PipelineMarker> place_markers(const RingGeometry& geometry, const Schedule& schedule, int wave,
                                          int channel, float travel, float size, bool counter_clockwise = false,
                                          const SwitchGeometry* in_switch = nullptr);

}  // namespace ringviz::gui
