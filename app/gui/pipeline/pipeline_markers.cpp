#include "app/gui/pipeline/pipeline_markers.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "app/gui/layout/ring_geometry.h"

namespace ringviz::gui {

std::vector<PipelineMarker> place_markers(const RingGeometry& geometry, const Schedule& schedule, int wave,
                                          int channel, float travel, float size, bool counter_clockwise,
                                          const SwitchGeometry* in_switch) {
  std::vector<PipelineMarker> markers;
  if (wave < 1 || wave > schedule.round_count()) return markers;
  const Round& round = schedule.rounds[static_cast<std::size_t>(wave - 1)];
  const int n = geometry.ranks;
  const int slices = std::max(1, schedule.slices);
  // Channels side by side across their arrow: all of them, or, where each lane has an arrow
  // of its own, the channels of one lane.
  const int own_lanes = counter_clockwise ? std::max(1, schedule.lanes) : 1;
  const int lanes = channel == kAllChannels ? std::max(1, schedule.channels / own_lanes) : 1;
  std::map<std::pair<int, int>, ArrowPath> across;  // links between GPUs that are not ring neighbours
  for (const Transfer& transfer : round.transfers) {
    if (channel != kAllChannels && transfer.step.channel != channel) continue;
    const ArrowPath* path = nullptr;
    const ArrowPath* ring = ring_arrow(geometry, transfer.src, transfer.dst);
    if (in_switch != nullptr) {
      // Every GPU's slots share its spoke: their markers of one (channel, slice) sit on one
      // another, as the data they carry travels the spoke together.
      path = &switch_spoke(*in_switch, transfer);
    } else if (ring != nullptr && (counter_clockwise || transfer.dst == (transfer.src + 1) % n)) {
      path = ring;
    } else {
      auto [at, fresh] = across.try_emplace({transfer.src, transfer.dst});
      if (fresh) at->second = transfer_path(geometry, transfer.src, transfer.dst);
      path = &at->second;
    }
    const float length = path->total();
    if (length <= 0) continue;
    // The train takes at most 80% of its link; markers keep a fifth of their side apart.
    const float spacing = std::min(size * 1.2f, length * 0.8f / static_cast<float>(slices));
    float side = std::max(2.0f, std::min(size, spacing / 1.2f));
    if (in_switch != nullptr) {
      // No wider than the spoke's room: an upright square reaches half its diagonal from its
      // centre, plus its lane's distance from the spoke (a pixel kept for rounding).
      const int gpu = transfer.kind == TransferKind::reduce ? transfer.src : transfer.dst;
      const float room = in_switch->room[static_cast<std::size_t>(gpu)] - 1.0f;
      side = std::max(2.0f, std::min(side, room / (0.6f * static_cast<float>(lanes - 1) + 0.71f)));
    }
    const float half_train = spacing * static_cast<float>(slices) * 0.5f;
    const float margin = std::min(0.5f, half_train / length);
    const float centre = margin + std::clamp(travel, 0.0f, 1.0f) * (1.0f - 2.0f * margin);
    const float ahead = (static_cast<float>(slices - 1) * 0.5f - static_cast<float>(transfer.step.slice)) * spacing;
    const float t = std::clamp(centre + ahead / length, 0.0f, 1.0f);
    const Vec2 direction = path->direction_at(t);
    const int lane = lanes > 1 ? transfer.step.channel % lanes : 0;
    const float across_arrow = (static_cast<float>(lane) - static_cast<float>(lanes - 1) * 0.5f) * side * 1.2f;
    const Vec2 at = path->at(t) + Vec2{-direction.y, direction.x} * across_arrow;
    markers.push_back({.channel = transfer.step.channel,
                       .round = transfer.step.round,
                       .slice = transfer.step.slice,
                       .src = transfer.src,
                       .dst = transfer.dst,
                       .slot = transfer.slot,
                       .source_slot = transfer.source_slot(),
                       .kind = transfer.kind,
                       .box = {std::round(at.x - side * 0.5f), std::round(at.y - side * 0.5f), side, side}});
  }
  return markers;
}

}  // namespace ringviz::gui
