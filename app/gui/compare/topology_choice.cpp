#include "app/gui/compare/topology_choice.h"

#include <algorithm>
#include <array>

#include "app/gui/render/imgui_helpers.h"
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

std::string topology_choice_label(const TopologyChoice& choice, int gpus) {
  const UiStrings& t = ui_strings();
  auto gpus_text = [&](int n) { return format(t.topology_gpus[n == 1 ? 0 : 1], n); };
  if (choice.kind == "nodes" || choice.kind == "nodes-rail") {
    const int machines = gpus >= 2 && gpus % 2 == 0 ? 2 : 1;  // as spec_for_gpus()
    return format(choice.kind == "nodes" ? t.topology_nodes : t.topology_nodes_rail, machines,
                  gpus_text(gpus / machines).c_str());
  }
  if (choice.kind == "nvswitch") return format(t.topology_nvswitch, gpus_text(gpus).c_str());
  if (choice.kind == "ring") return format(t.topology_ring, gpus_text(gpus).c_str());
  if (choice.kind == "pcie") return format(t.topology_pcie, gpus_text(gpus).c_str());
  return {};
}

std::string link_note_text(const std::string& key, const std::string& english) {
  // The keys of link_presets(), in its order, which is the order of UiStrings::link_notes.
  static constexpr std::array<const char*, 5> kKeys = {"nvlink4", "pcie4", "pcie5", "ib100", "ib400"};
  for (std::size_t i = 0; i < kKeys.size(); ++i)
    if (key == kKeys[i]) return ui_strings().link_notes[i];
  return english;
}

}  // namespace ringviz::gui
