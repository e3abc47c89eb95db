#pragma once
// The Compare tab's topology selector: a kind of machine whose size follows the setup panel's
// GPU count, so that changing --gpus never leaves the comparison on a machine of another size
// (docs/architecture.md, "The Compare tab on a topology").
#include <string>
#include <vector>

namespace ringviz::gui {

// "star": the contention-free machine of the link selector (each GPU one port into a
// non-blocking switch); the others are the --topology presets' kinds.
struct TopologyChoice {
  std::string kind;
  std::string spec_for_gpus(int gpus) const;  // "" for the star
  bool is_star() const { return kind == "star"; }
};

// What the Compare tab says about the machine `kind` builds at `gpus` GPUs, in the UI
// language (core's Topology::label is English, for the command line); "" for the star.
std::string topology_choice_label(const TopologyChoice& choice, int gpus);
// A link preset's note (LinkModel::note) in the UI language; core's English for an unknown key.
std::string link_note_text(const std::string& key, const std::string& english);

// Every kind the selector offers, the star first.
const std::vector<std::string>& topology_choice_kinds();
// A kind from topology_choice_kinds(), or the kind of a preset spec ("ring:8" -> "ring");
// "" when neither.
std::string topology_choice_kind(const std::string& text);

}  // namespace ringviz::gui
