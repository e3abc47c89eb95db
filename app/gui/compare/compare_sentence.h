#pragma once
// The sentence under the Compare tab's plot, said from the comparison it sits under: which
// algorithm is fastest at the smallest and the largest size of the sweep on this topology,
// and every size where the fastest changes (docs/architecture.md, "The Compare tab on a topology").
// A fixed caption could contradict the plot on some topology; this one cannot.
#include <cstdint>
#include <string>

#include "app/gui/text/strings.h"
#include "core/training/cost_model.h"

namespace ringviz::gui {

// Sizes as people say them: "1 KiB", "96 KiB", "1.5 MiB", "1 GiB".
std::string size_words(std::int64_t bytes);

// "" when the comparison has no sweep.
std::string comparison_sentence(const CostComparison& comparison, const UiStrings& strings);

}  // namespace ringviz::gui
