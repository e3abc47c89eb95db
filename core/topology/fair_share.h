#pragma once
// Max-min fair rates of the flows crossing a topology at one moment (docs/architecture.md,
// "Topology and contention"): progressive filling. All unfrozen flows grow at the same rate
// until a link is full or a flow reaches its own cap; those flows freeze, and the rest go on.
#include <vector>

#include "core/topology/topology.h"

namespace ringviz {

struct FairShareFlow {
  const std::vector<int>* route = nullptr;  // link indices, not empty
  double cap = 0;                           // bytes per second; 0: none
};

// Bytes per second of each flow, in order. `flows_per_link` receives how many flows cross
// each link of `topology`.
std::vector<double> fair_share_rates(const Topology& topology, const std::vector<FairShareFlow>& flows,
                                     std::vector<int>& flows_per_link);

}  // namespace ringviz
