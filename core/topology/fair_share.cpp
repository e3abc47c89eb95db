#include "core/topology/fair_share.h"

#include <algorithm>
#include <limits>

namespace ringviz {

std::vector<double> fair_share_rates(const Topology& topology, const std::vector<FairShareFlow>& flows,
                                     std::vector<int>& flows_per_link) {
  constexpr double kUnbounded = std::numeric_limits<double>::infinity();
  const std::size_t link_count = topology.links.size();
  flows_per_link.assign(link_count, 0);
  std::vector<double> spare(link_count);
  for (std::size_t link = 0; link < link_count; ++link) spare[link] = topology.links[link].bytes_per_second;
  for (const FairShareFlow& flow : flows)
    for (int link : *flow.route) ++flows_per_link[static_cast<std::size_t>(link)];
  std::vector<int> unfrozen_on = flows_per_link;
  std::vector<std::size_t> used;  // only links some flow crosses take part
  for (std::size_t link = 0; link < link_count; ++link)
    if (flows_per_link[link] > 0) used.push_back(link);
  std::vector<double> rates(flows.size(), 0);
  std::vector<bool> frozen(flows.size(), false);
  std::size_t left = flows.size();
  while (left > 0) {
    // The level at which the next link fills or the next flow reaches its cap.
    double level = kUnbounded;
    for (std::size_t link : used)
      if (unfrozen_on[link] > 0) level = std::min(level, spare[link] / unfrozen_on[link]);
    for (std::size_t i = 0; i < flows.size(); ++i)
      if (!frozen[i] && flows[i].cap > 0) level = std::min(level, flows[i].cap);
    const double tolerance = level * (1 + 1e-12);
    std::vector<bool> full(link_count, false);
    for (std::size_t link : used) full[link] = unfrozen_on[link] > 0 && spare[link] / unfrozen_on[link] <= tolerance;
    for (std::size_t i = 0; i < flows.size(); ++i) {
      if (frozen[i]) continue;
      const bool capped = flows[i].cap > 0 && flows[i].cap <= tolerance;
      const bool bottlenecked =
          std::any_of(flows[i].route->begin(), flows[i].route->end(),
                      [&](int link) { return full[static_cast<std::size_t>(link)]; });
      if (!capped && !bottlenecked) continue;
      rates[i] = level;
      frozen[i] = true;
      --left;
      for (int link : *flows[i].route) {
        spare[static_cast<std::size_t>(link)] = std::max(0.0, spare[static_cast<std::size_t>(link)] - level);
        --unfrozen_on[static_cast<std::size_t>(link)];
      }
    }
  }
  return rates;
}

}  // namespace ringviz
