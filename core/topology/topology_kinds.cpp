#include "core/topology/topology_kinds.h"

#include <algorithm>

namespace ringviz {

const std::vector<std::string>& topology_kinds() {
  static const std::vector<std::string> kinds = {"star", "nvswitch", "ring", "pcie", "nodes", "nodes-rail"};
  return kinds;
}

std::string topology_kind_of(const std::string& text) {
  const std::string kind = text.substr(0, text.find(':'));
  const auto& kinds = topology_kinds();
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end() ? kind : std::string();
}

}  // namespace ringviz
