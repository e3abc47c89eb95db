#pragma once
// A rectangle painted with the colours of the ranks folded into a value: what a packet or a
// pipelined slice carries, read at a glance.
#include <imgui.h>

#include "app/gui/layout/geometry.h"
#include "app/gui/render/theme.h"
#include "core/engine/provenance.h"

namespace ringviz::gui {

// Vertical stripes, one per contributing rank (at most `max_stripes`, then the first colour).
void fill_stripes(ImDrawList* dl, const Rect& r, const RankSet& set, int ranks, PaletteKind palette, float rounding,
                  std::size_t max_stripes = 16);

// The first rank in `set` (0 when empty): whose colour a value of several ranks is read on.
int first_rank(const RankSet& set, int ranks);

}  // namespace ringviz::gui
