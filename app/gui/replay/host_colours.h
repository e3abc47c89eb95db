#pragma once
// Hosts of a capture as the GUI tells them apart: one colour per host, in order of first
// appearance, clear of the timeline's span colours (they outline GPU boxes and label timeline rows).
#include <string>
#include <vector>

#include "app/gui/render/colour.h"
#include "core/trace/trace_read.h"

namespace ringviz::gui {

struct HostGroups {
  std::vector<std::string> names;  // distinct hosts, in rank order of first appearance
  std::vector<int> of_rank;        // index into names per rank
};
HostGroups host_groups(const CaptureRecord& capture);
Rgb host_colour(int host_index);

}  // namespace ringviz::gui
