#include "app/gui/compare/topology_choice.h"

#include "app/gui/text/strings.h"

namespace ringviz::gui {

std::string TopologyChoice::spec_for_gpus(int gpus) const {
  if (is_star()) return {};
  if (kind == "nodes" || kind == "nodes-rail") {
    // Two machines when the GPUs split evenly, so the network link is there to share.
    const int machines = gpus >= 2 && gpus % 2 == 0 ? 2 : 1;
    return kind + ":" + std::to_string(machines) + "x" + std::to_string(gpus / machines);
  }
  return kind + ":" + std::to_string(gpus);
}

const std::string& topology_label_text(const Topology& topology, Language language) {
  return language == Language::zh && !topology.label_zh.empty() ? topology.label_zh : topology.label;
}

std::string link_note_text(const LinkModel& link, Language language) {
  const std::string_view zh = link_note_zh(link.key);
  return language == Language::zh && !zh.empty() ? std::string(zh) : link.note;
}

}  // namespace ringviz::gui
