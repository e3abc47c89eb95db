#pragma once
// The link view: the Compare tab's topology (GPUs and switches as boxes, links as lines, one per
// direction) and what every link carries in the current step, routed as the contention model
// routes it; a link that more than one transfer crosses in the step is highlighted and labelled
// (docs/architecture.md, "The Compare tab on a topology"). Under the ring on ring:N every transfer
// has its own link; on nvswitch:N direct's transfers share every port; on pcie:N the uplinks
// are the hot spot.
#include <cstdint>
#include <vector>

#include "app/gui/state/centre_view_context.h"
#include "app/gui/render/colour.h"
#include "app/gui/layout/geometry.h"
#include "app/gui/layout/ring_geometry.h"
#include "core/schedule/rounds.h"
#include "core/model/layout.h"
#include "core/training/cost_model.h"

struct ImDrawList;

namespace ringviz::gui {

// What one directed link (src -> dst) carries in one round: every transfer between the two.
struct LinkLoad {
  int src = 0, dst = 0;
  std::int64_t bytes = 0;
  int transfers = 0;
};

// One entry per directed pair that carries anything in `round`, in order of first transfer.
std::vector<LinkLoad> link_loads(const Round& round, const SlotLayout& layout, DType dtype);
// The most bytes one link carries in any round of `schedule` (the colour scale's top).
std::int64_t busiest_link_in_any_round(const Schedule& schedule, const SlotLayout& layout, DType dtype);

// Cold to hot for 0..1: dark blue, teal, yellow, red (readable on both themes).
Rgb heat_colour(float t);

// The round the link view shows at `moment`: the one in flight, else the last one done, else
// the first (a preview before anything moved). 1-based; 0 when the schedule has no rounds.
int link_view_round(const RoundMoment& moment, int round_count);


// The comparison whose topology and simulation the view draws, and that topology's routes;
// null while it is being computed.
struct LinkViewInput {
  const CostComparison* comparison = nullptr;
  const Routes* routes = nullptr;
};

// Draws the view into `area` with the session's schedule at `moment`.
void draw_link_view(ImDrawList* dl, const Rect& area, const ViewContext& context, const LinkViewInput& input);

}  // namespace ringviz::gui
