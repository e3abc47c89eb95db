#pragma once
// The Compare tab's topology selector: a kind of machine whose size follows the setup panel's
// GPU count, so that changing --gpus never leaves the comparison on a machine of another size
// (docs/architecture.md, "The Compare tab on a topology").
#include <string>
#include <vector>

#include "core/model/text.h"
#include "core/topology/link_model.h"
#include "core/topology/topology.h"
#include "core/topology/topology_kinds.h"

namespace ringviz::gui {

// "star": the contention-free machine of the link selector (each GPU one port into a
// non-blocking switch); the others are the --topology presets' kinds.
struct TopologyChoice {
  std::string kind;
  std::string spec_for_gpus(int gpus) const;  // "" for the star
  bool is_star() const { return kind == "star"; }
};

// Core words the machines and links in both languages (Topology::label and label_zh,
// LinkModel::note and link_note_zh); these only pick the UI language's, falling back to the
// English where core has no Chinese (a topology file, an unknown key).
const std::string& topology_label_text(const Topology& topology, Language language);
std::string link_note_text(const LinkModel& link, Language language);

}  // namespace ringviz::gui
