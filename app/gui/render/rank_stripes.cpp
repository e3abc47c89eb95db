#include "app/gui/render/rank_stripes.h"

#include <vector>

#include "app/gui/render/imgui_helpers.h"

namespace ringviz::gui {

void fill_stripes(ImDrawList* dl, const Rect& r, const RankSet& set, int ranks, PaletteKind palette, float rounding,
                  std::size_t max_stripes) {
  std::vector<int> contributors;
  for (int k = 0; k < ranks; ++k)
    if (set.test(static_cast<std::size_t>(k))) contributors.push_back(k);
  if (contributors.empty()) return;
  if (contributors.size() == 1 || contributors.size() > max_stripes) {
    dl->AddRectFilled(to_imvec(r.min()), to_imvec(r.max()),
                      to_imcol(rank_colour(contributors.front(), palette)), rounding);
    return;
  }
  const float w = r.w / static_cast<float>(contributors.size());
  for (std::size_t i = 0; i < contributors.size(); ++i)
    dl->AddRectFilled(ImVec2(r.x + w * i, r.y), ImVec2(r.x + w * (i + 1), r.bottom()),
                      to_imcol(rank_colour(contributors[i], palette)));
}

int first_rank(const RankSet& set, int ranks) {
  for (int k = 0; k < ranks; ++k)
    if (set.test(static_cast<std::size_t>(k))) return k;
  return 0;
}

}  // namespace ringviz::gui
