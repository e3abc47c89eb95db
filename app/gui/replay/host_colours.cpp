#include "app/gui/replay/host_colours.h"

#include <algorithm>

namespace ringviz::gui {

HostGroups host_groups(const CaptureRecord& capture) {
  HostGroups groups;
  for (const CapturedRank& rank : capture.ranks) {
    const auto found = std::find(groups.names.begin(), groups.names.end(), rank.host);
    groups.of_rank.push_back(static_cast<int>(found - groups.names.begin()));
    if (found == groups.names.end()) groups.names.push_back(rank.host);
  }
  return groups;
}

Rgb host_colour(int host_index) {
  static constexpr Rgb kHostColours[] = {{64, 196, 200}, {236, 178, 64}, {186, 130, 236},
                                         {120, 200, 96}, {236, 120, 170}, {150, 170, 200}};
  constexpr int count = static_cast<int>(sizeof kHostColours / sizeof kHostColours[0]);
  return kHostColours[((host_index % count) + count) % count];
}

}  // namespace ringviz::gui
