#include "app/gui/compare/topology_choice.h"

#include <algorithm>

#include "app/gui/text/strings.h"

namespace ringviz::gui {

const std::vector<std::string>& topology_choice_kinds() {
  static const std::vector<std::string> kinds = {"star", "nvswitch", "ring", "pcie", "nodes", "nodes-rail"};
  return kinds;
}

std::string topology_choice_kind(const std::string& text) {
  const std::string kind = text.substr(0, text.find(':'));
  const auto& kinds = topology_choice_kinds();
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end() ? kind : std::string();
}

std::string TopologyChoice::spec_for_gpus(int gpus) const {
  if (is_star()) return {};
  if (kind == "nodes" || kind == "nodes-rail") {
    // Two machines when the GPUs split evenly, so the network link is there to share.
    const int machines = gpus >= 2 && gpus % 2 == 0 ? 2 : 1;
    return kind + ":" + std::to_string(machines) + "x" + std::to_string(gpus / machines);
  }
  return kind + ":" + std::to_string(gpus);
}

const std::string& topology_label_text(const Topology& topology) {
  return ui_language() == Language::zh && !topology.label_zh.empty() ? topology.label_zh : topology.label;
}

std::string link_note_text(const LinkModel& link) {
  const std::string_view zh = link_note_zh(link.key);
  return ui_language() == Language::zh && !zh.empty() ? std::string(zh) : link.note;
}

}  // namespace ringviz::gui
