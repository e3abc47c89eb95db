#pragma once
// Where the bytes of a collective travel: GPUs, switches and the directed links between them,
// and the route every transfer takes (docs/architecture.md, "Topology and contention").
// The contention simulation (contention.h) shares each link's bandwidth among the transfers
// that cross it at the same time.
#include <string>
#include <string_view>
#include <vector>

#include "core/topology/link_model.h"

namespace ringviz {

// One direction of a physical link. Figures are per direction: a full-duplex NVLink is two
// TopologyLinks.
struct TopologyLink {
  int from = 0;  // node indices: GPUs first (0 … gpus-1), then switches
  int to = 0;
  double bytes_per_second = 1;
  double latency_seconds = 0;  // per hop, paid once by every transfer that crosses it
  // The LinkModel this link is made of ("nvlink4", "pcie5", "ib400", or a custom file's class
  // name): `ringviz compare --fit` fits α and β per class.
  std::string link_class;
  // The software α of one transfer over this kind of link, paid once per transfer on the
  // sender's channel worker (the largest along the route counts).
  double alpha_seconds = 0;
  // The rate one channel's worker copies or reduces over this kind of link; 0: no cap.
  double channel_bytes_per_second = 0;
};

struct Topology {
  std::string key;    // what --topology took: "ring:8", "nodes:2x8", or the file's path
  std::string label;  // "8 GPUs in a ring of NVLink 4"
  std::string label_zh;  // the presets' label in Chinese; empty: files and stars, which print `label`
  int gpus = 0;
  // Machines the GPUs are spread over (nodes:MxG: M); presets of one machine and files: 1.
  int machines = 1;
  std::vector<std::string> node_names;  // gpus GPUs ("GPU 0"), then the switches
  std::vector<TopologyLink> links;
  double gamma_seconds_per_byte = 0;  // folding one byte into a local buffer
  std::string note;                   // where the figures come from, in one line

  int node_count() const { return static_cast<int>(node_names.size()); }
};

// Building blocks of the presets and of files: `gpus` GPUs named "GPU 0" …; a switch, whose
// node index is returned; both directions of a link made of `model` at `bytes_per_second`.
Topology topology_with_gpus(int gpus);
int add_switch(Topology& topology, std::string name);
void add_duplex_link(Topology& topology, int a, int b, const LinkModel& model, double bytes_per_second);

// The links, in order, a transfer from GPU `src` to GPU `dst` crosses: the route of least
// summed latency, ties to the fewest hops, then to the lower link index. Computed for every
// pair when built.
class Routes {
 public:
  explicit Routes(const Topology& topology);
  const std::vector<int>& route(int src, int dst) const {
    return routes_[static_cast<std::size_t>(src) * static_cast<std::size_t>(gpus_) + static_cast<std::size_t>(dst)];
  }

 private:
  int gpus_ = 0;
  std::vector<std::vector<int>> routes_;
};

// Throws InputError("<where>: …") when a link names a missing node or a figure is not
// positive and finite, when a GPU cannot reach another, or when there are no GPUs.
void validate_topology(const Topology& topology, std::string_view where);

// Every GPU has one full-duplex port of `link` into one non-blocking switch, no per-hop
// latency and no channel cap: the machine of the contention-free model, which `ringviz
// compare --link` still describes.
Topology star_topology(const LinkModel& link, int gpus);

// --topology's presets: "nvswitch:N", "ring:N", "pcie:N", "nodes:MxG", "nodes-rail:MxG"
// (topology_presets.cpp has the figures). Throws InputError naming `field` and the forms.
Topology topology_preset(std::string_view spec, std::string_view field = "--topology");
// The forms the presets take, for help texts: "nvswitch:N | ring:N | …".
std::string topology_preset_forms();

// A preset, or a custom topology from a JSON file when `spec` ends in ".json"
// (topology_file.cpp).
Topology topology_from_spec(std::string_view spec, std::string_view field = "--topology");

}  // namespace ringviz
