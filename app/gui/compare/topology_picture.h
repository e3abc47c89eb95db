#pragma once
// What the link view draws of a topology in one step (docs/architecture.md, "The Compare tab
// on a topology"): where its GPUs and switches stand, and what each directed link carries in
// the step, routed as the contention simulation routes it. Plain data, so tests can check it
// without drawing.
#include <string>
#include <vector>

#include "app/gui/layout/geometry.h"
#include "core/schedule/rounds.h"
#include "core/topology/contention.h"
#include "core/topology/topology.h"
#include "core/training/cost_model.h"

namespace ringviz::gui {

// One directed link of the topology in one step.
struct StepLinkLoad {
  double bytes = 0;   // every transfer of the step that crosses it
  int transfers = 0;  // how many transfers cross it: above 1, they share its bandwidth
};

// Parallel to topology.links. `simulated` gives each transfer's bytes (the simulation's detail
// for this round, parallel to round.transfers); transfers beyond it count with no bytes.
std::vector<StepLinkLoad> step_link_loads(const Topology& topology, const Routes& routes, const Round& round,
                                          const std::vector<SimulatedTransfer>& simulated);

// Node centres in `area` (parallel to topology.node_names): the GPUs on a circle, GPU 0 at the
// top and clockwise as the ring view has them; a switch between the GPUs it serves, pulled
// toward the centre, or in the centre when it serves only switches. `box` is the size of a
// node's box, so that two switches never sit on each other.
std::vector<Vec2> topology_node_centres(const Topology& topology, const Rect& area, Vec2 box);

// A switch's name where it does not fit its box: initials and digits ("PCIe switch 0" -> "PS0").
std::string short_node_name(const std::string& name);

// The most bytes one link carries in any step of `simulation` (the colour scale's top).
double busiest_link_step_bytes(const Simulation& simulation);

// One step of `algorithm` in `comparison`, as the link view draws it.
struct TopologyStepPicture {
  std::vector<StepLinkLoad> loads;  // parallel to comparison.topology.links
  double top_bytes = 0;             // the busiest link in any step of the algorithm
  double step_top_bytes = 0;        // the busiest link in this step
  int busy_links = 0;
  int shared_links = 0;  // crossed by more than one transfer of the step
};

// `schedule` is the algorithm's schedule for the comparison's question (the session's);
// `round` is 0-based. Loads count no bytes where the comparison's simulation is of another
// schedule (a comparison still being computed for a new question).
TopologyStepPicture topology_step_picture(const CostComparison& comparison, const Routes& routes,
                                          const Schedule& schedule, Algorithm algorithm, int round);

}  // namespace ringviz::gui
