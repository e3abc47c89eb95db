#include "core/topology/topology.h"

#include <cmath>
#include <limits>
#include <queue>
#include <tuple>

#include "core/model/input_error.h"

namespace ringviz {

namespace {

bool positive_finite(double value) { return std::isfinite(value) && value > 0; }

// Least summed latency from `src` to every node; ties go to fewer hops, then to the lower link.
std::vector<int> shortest_path_links(const Topology& topology, const std::vector<std::vector<int>>& outgoing, int src) {
  using Distance = std::tuple<double, int, int>;  // latency, hops, link index that reached the node
  const int nodes = topology.node_count();
  const Distance unreached{std::numeric_limits<double>::infinity(), 0, -1};
  std::vector<Distance> best(static_cast<std::size_t>(nodes), unreached);
  std::vector<int> via(static_cast<std::size_t>(nodes), -1);
  using Entry = std::pair<Distance, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  best[static_cast<std::size_t>(src)] = {0.0, 0, -1};
  queue.push({best[static_cast<std::size_t>(src)], src});
  while (!queue.empty()) {
    const auto [distance, node] = queue.top();
    queue.pop();
    if (distance != best[static_cast<std::size_t>(node)]) continue;
    // Only GPUs' own routes start at a GPU; other GPUs forward (ring:N) like switches do.
    for (int index : outgoing[static_cast<std::size_t>(node)]) {
      const TopologyLink& link = topology.links[static_cast<std::size_t>(index)];
      const Distance next{std::get<0>(distance) + link.latency_seconds, std::get<1>(distance) + 1, index};
      if (next < best[static_cast<std::size_t>(link.to)]) {
        best[static_cast<std::size_t>(link.to)] = next;
        via[static_cast<std::size_t>(link.to)] = index;
        queue.push({next, link.to});
      }
    }
  }
  return via;
}

}  // namespace

Topology topology_with_gpus(int gpus) {
  Topology topology;
  topology.gpus = gpus;
  for (int gpu = 0; gpu < gpus; ++gpu) topology.node_names.push_back("GPU " + std::to_string(gpu));
  return topology;
}

int add_switch(Topology& topology, std::string name) {
  topology.node_names.push_back(std::move(name));
  return topology.node_count() - 1;
}

void add_duplex_link(Topology& topology, int a, int b, const LinkModel& model, double bytes_per_second) {
  for (const auto& [from, to] : {std::pair{a, b}, std::pair{b, a}})
    topology.links.push_back({from, to, bytes_per_second, model.hop_latency_seconds, model.key, model.alpha_seconds,
                              model.channel_bytes_per_second});
}

Routes::Routes(const Topology& topology) : gpus_(topology.gpus) {
  std::vector<std::vector<int>> outgoing(static_cast<std::size_t>(topology.node_count()));
  for (std::size_t index = 0; index < topology.links.size(); ++index)
    outgoing[static_cast<std::size_t>(topology.links[index].from)].push_back(static_cast<int>(index));
  routes_.resize(static_cast<std::size_t>(gpus_) * static_cast<std::size_t>(gpus_));
  for (int src = 0; src < gpus_; ++src) {
    const std::vector<int> via = shortest_path_links(topology, outgoing, src);
    for (int dst = 0; dst < gpus_; ++dst) {
      std::vector<int>& route = routes_[static_cast<std::size_t>(src) * static_cast<std::size_t>(gpus_) +
                                        static_cast<std::size_t>(dst)];
      for (int node = dst; node != src && via[static_cast<std::size_t>(node)] >= 0;
           node = topology.links[static_cast<std::size_t>(via[static_cast<std::size_t>(node)])].from)
        route.insert(route.begin(), via[static_cast<std::size_t>(node)]);
    }
  }
}

void validate_topology(const Topology& topology, std::string_view where) {
  const std::string prefix = std::string(where) + ": ";
  if (topology.gpus < 1) throw InputError(prefix + "a topology needs at least one GPU");
  for (std::size_t index = 0; index < topology.links.size(); ++index) {
    const TopologyLink& link = topology.links[index];
    const std::string name = "link " + std::to_string(index);
    if (link.from < 0 || link.from >= topology.node_count() || link.to < 0 || link.to >= topology.node_count())
      throw InputError(prefix + name + " names a node that does not exist");
    if (link.from == link.to) throw InputError(prefix + name + " starts and ends at the same node");
    if (!positive_finite(link.bytes_per_second)) throw InputError(prefix + name + ": bandwidth must be above 0");
    if (!std::isfinite(link.latency_seconds) || link.latency_seconds < 0 || !std::isfinite(link.alpha_seconds) ||
        link.alpha_seconds < 0 || !std::isfinite(link.channel_bytes_per_second) || link.channel_bytes_per_second < 0)
      throw InputError(prefix + name + ": latency, alpha and channel cap must be 0 or above");
  }
  const Routes routes(topology);
  for (int src = 0; src < topology.gpus; ++src)
    for (int dst = 0; dst < topology.gpus; ++dst)
      if (src != dst && routes.route(src, dst).empty())
        throw InputError(prefix + "no route from " + topology.node_names[static_cast<std::size_t>(src)] + " to " +
                         topology.node_names[static_cast<std::size_t>(dst)] + "; add a link between them");
}

Topology star_topology(const LinkModel& link, int gpus) {
  Topology topology = topology_with_gpus(gpus);
  topology.key = link.key;
  topology.label = link.label;
  topology.note = link.note;
  topology.gamma_seconds_per_byte = link.gamma_seconds_per_byte;
  const int fabric = add_switch(topology, "switch");
  LinkModel port = link;
  port.hop_latency_seconds = 0;
  port.channel_bytes_per_second = 0;
  for (int gpu = 0; gpu < gpus; ++gpu) add_duplex_link(topology, gpu, fabric, port, link.bytes_per_second);
  return topology;
}

}  // namespace ringviz
