#include "app/gui/replay/host_colours.h"

#include <algorithm>

namespace ringviz::gui {

HostGroups host_groups(const CaptureRecord& capture) {
  HostGroups groups;
  for (const CaptureRank& rank : capture.ranks) {
    const auto found = std::find(groups.names.begin(), groups.names.end(), rank.host);
    groups.of_rank.push_back(static_cast<int>(found - groups.names.begin()));
    if (found == groups.names.end()) groups.names.push_back(rank.host);
  }
  return groups;
}

Rgb host_colour(int host_index) {
  // Clear of the timeline's span colours (cyan send, red delay, grey wait, orange reduce).
  static constexpr Rgb kHostColours[] = {{180, 130, 240}, {150, 210, 90}, {240, 130, 180},
                                         {210, 190, 140}, {110, 150, 250}, {250, 250, 250}};
  constexpr int count = static_cast<int>(sizeof kHostColours / sizeof kHostColours[0]);
  return kHostColours[((host_index % count) + count) % count];
}

}  // namespace ringviz::gui
