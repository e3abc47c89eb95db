#include "app/gui/compare/topology_picture.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace ringviz::gui {

std::vector<StepLinkLoad> step_link_loads(const Topology& topology, const Routes& routes, const Round& round,
                                          const std::vector<SimulatedTransfer>& simulated) {
  std::vector<StepLinkLoad> loads(topology.links.size());
  for (std::size_t i = 0; i < round.transfers.size(); ++i) {
    const Transfer& transfer = round.transfers[i];
    if (transfer.src >= topology.gpus || transfer.dst >= topology.gpus) continue;
    const double bytes = i < simulated.size() ? simulated[i].bytes : 0;
    for (int link : routes.route(transfer.src, transfer.dst)) {
      StepLinkLoad& load = loads[static_cast<std::size_t>(link)];
      load.bytes += bytes;
      ++load.transfers;
    }
  }
  return loads;
}

std::vector<Vec2> topology_node_centres(const Topology& topology, const Rect& area, Vec2 box) {
  const int gpus = topology.gpus;
  const Vec2 centre = area.centre();
  const float radius = std::max(1.0f, std::min(area.w - box.x, area.h - box.y) * 0.5f);
  std::vector<Vec2> at(static_cast<std::size_t>(topology.node_count()), centre);
  for (int gpu = 0; gpu < gpus; ++gpu) {
    const float angle = -1.5707963f + 6.2831853f * static_cast<float>(gpu) / static_cast<float>(gpus);
    at[static_cast<std::size_t>(gpu)] = {centre.x + radius * std::cos(angle), centre.y + radius * std::sin(angle)};
  }
  // Switches that serve GPUs first, toward their GPUs; then the others (a root complex, a
  // network switch), in the middle. One that would cover another steps down until clear.
  std::vector<bool> placed(at.size(), false);
  for (int pass = 0; pass < 2; ++pass)
    for (int node = gpus; node < topology.node_count(); ++node) {
      Vec2 sum{0, 0};
      int served = 0;
      for (const TopologyLink& link : topology.links)
        if (link.from == node && link.to < gpus) {
          sum = sum + at[static_cast<std::size_t>(link.to)];
          ++served;
        }
      if ((pass == 0) != (served > 0)) continue;
      Vec2 place = centre;
      if (served > 0) {
        const Vec2 toward = sum * (1.0f / static_cast<float>(served)) - centre;
        // A switch of every GPU stays in the middle; one of some of them goes half way to them.
        if (toward.length() > radius * 0.05f) place = centre + toward * (radius * 0.5f / toward.length());
      }
      for (bool clear = false; !clear;) {
        clear = true;
        for (int other = gpus; other < topology.node_count(); ++other) {
          if (!placed[static_cast<std::size_t>(other)]) continue;
          const Vec2 d = place - at[static_cast<std::size_t>(other)];
          if (std::fabs(d.x) < box.x * 1.05f && std::fabs(d.y) < box.y * 1.3f) {
            place.y += box.y * 1.5f;
            clear = false;
          }
        }
      }
      at[static_cast<std::size_t>(node)] = place;
      placed[static_cast<std::size_t>(node)] = true;
    }
  return at;
}

std::string short_node_name(const std::string& name) {
  std::string initials;
  bool word_start = true;
  for (char c : name) {
    if (c == ' ') word_start = true;
    else if (word_start || std::isdigit(static_cast<unsigned char>(c))) {
      initials += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      word_start = false;
    }
  }
  return initials;
}

double busiest_link_step_bytes(const Simulation& simulation) {
  double most = 0;
  for (const LinkTraffic& link : simulation.links)
    for (double bytes : link.bytes_per_round) most = std::max(most, bytes);
  return most;
}

TopologyStepPicture topology_step_picture(const CostComparison& comparison, const Routes& routes,
                                          const Schedule& schedule, Algorithm algorithm, int round) {
  TopologyStepPicture picture;
  if (round < 0 || round >= schedule.round_count()) return picture;
  const Round& step = schedule.rounds[static_cast<std::size_t>(round)];
  static const std::vector<SimulatedTransfer> kNone;
  const std::vector<SimulatedTransfer>* simulated = &kNone;
  for (std::size_t i = 0; i < comparison.algorithms.size() && i < comparison.at_count.size(); ++i) {
    if (comparison.algorithms[i] != algorithm) continue;
    const Simulation& simulation = comparison.at_count[i].simulation;
    const bool same_schedule = simulation.transfers.size() == schedule.rounds.size() &&
                               simulation.transfers[static_cast<std::size_t>(round)].size() == step.transfers.size();
    if (same_schedule) {
      simulated = &simulation.transfers[static_cast<std::size_t>(round)];
      picture.top_bytes = busiest_link_step_bytes(simulation);
    }
  }
  picture.loads = step_link_loads(comparison.topology, routes, step, *simulated);
  for (const StepLinkLoad& load : picture.loads) {
    picture.step_top_bytes = std::max(picture.step_top_bytes, load.bytes);
    if (load.transfers > 0) ++picture.busy_links;
    if (load.transfers > 1) ++picture.shared_links;
  }
  picture.top_bytes = std::max(picture.top_bytes, picture.step_top_bytes);
  return picture;
}

}  // namespace ringviz::gui
