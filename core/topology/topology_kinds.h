#pragma once
// The kinds of machine a GPU count can be laid out on ("ring" becomes ring:8 at 8 GPUs), as the
// Compare tab offers them and --compare-topology names them. "star" is the contention-free
// machine of one link preset: each GPU one port into a non-blocking switch.
#include <string>
#include <vector>

namespace ringviz {

// Every kind, the star first.
const std::vector<std::string>& topology_kinds();
// A kind from topology_kinds(), or the kind of a preset spec ("ring:8" -> "ring"); "" when neither.
std::string topology_kind_of(const std::string& text);

}  // namespace ringviz
