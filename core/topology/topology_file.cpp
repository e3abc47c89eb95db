// Custom topologies from a small JSON file (docs/architecture.md, "Topology and contention";
// README, "ringviz compare"):
//   {"gpus": 4, "switches": ["fabric"], "gamma_seconds_per_byte": 1e-12,
//    "links": [{"from": "gpu0", "to": "fabric", "bytes_per_second": 450e9,
//               "latency_seconds": 1e-7, "alpha_seconds": 1e-6, "class": "nvlink",
//               "channel_bytes_per_second": 1e11, "duplex": true}, …]}
// GPUs are named gpu0 … gpuN-1; "duplex" (default true) adds the reverse direction too.
#include <cmath>
#include <set>

#include "core/input/json_input.h"
#include "core/model/config.h"
#include "core/model/input_error.h"
#include "core/topology/topology.h"

namespace ringviz {

namespace {

constexpr std::uintmax_t kMaxTopologyFileBytes = 4 << 20;
constexpr std::size_t kMaxSwitches = 4096;
constexpr std::size_t kMaxLinks = 65536;

class TopologyFileReader {
 public:
  TopologyFileReader(std::string text, std::string source) : text_(std::move(text)), source_(std::move(source)) {}

  Topology read() {
    const nlohmann::json document = parse_json_input(text_, source_);
    if (!document.is_object()) fail("", "expected an object with gpus, switches and links");
    for (const auto& [name, value] : document.items())
      if (name != "gpus" && name != "switches" && name != "links" && name != "gamma_seconds_per_byte" &&
          name != "name" && name != "schema")
        fail("/" + name, "unknown field '" + name + "' (expected gpus, switches, links, gamma_seconds_per_byte, name)");
    Topology topology = topology_with_gpus(static_cast<int>(whole(document, "/gpus", 1, kMaxRanks)));
    if (document.contains("name")) topology.label = text(document, "/name");
    topology.gamma_seconds_per_byte =
        document.contains("gamma_seconds_per_byte") ? figure(document, "/gamma_seconds_per_byte", true) : 1e-12;
    std::set<std::string> names;
    for (const std::string& name : topology.node_names) names.insert(gpu_name(name));
    if (document.contains("switches")) {
      const auto& switches = at(document, "/switches");
      if (!switches.is_array() || switches.size() > kMaxSwitches)
        fail("/switches", "expected an array of at most " + std::to_string(kMaxSwitches) + " names");
      for (std::size_t i = 0; i < switches.size(); ++i) {
        const std::string pointer = "/switches/" + std::to_string(i);
        const std::string name = text(document, pointer);
        if (!names.insert(name).second) fail(pointer, "the name '" + name + "' is used twice");
        add_switch(topology, name);
      }
    }
    const auto& links = at(document, "/links");
    if (!links.is_array() || links.empty() || links.size() > kMaxLinks)
      fail("/links", "expected an array of 1 to " + std::to_string(kMaxLinks) + " links");
    for (std::size_t i = 0; i < links.size(); ++i) read_link(document, "/links/" + std::to_string(i), topology);
    if (topology.label.empty()) topology.label = std::to_string(topology.gpus) + " GPUs from " + source_;
    validate_topology(topology, source_);
    return topology;
  }

 private:
  static std::string gpu_name(const std::string& label) { return "gpu" + label.substr(label.find(' ') + 1); }

  [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const {
    throw InputError(json_value_position(text_, source_, pointer) + ": " + (pointer.empty() ? "" : pointer.substr(1) + ": ") +
                     problem);
  }

  const nlohmann::json& at(const nlohmann::json& document, const std::string& pointer) const {
    const nlohmann::json::json_pointer path(pointer);
    if (!document.contains(path)) fail(pointer.substr(0, pointer.rfind('/')), "missing field '" + pointer.substr(pointer.rfind('/') + 1) + "'");
    return document.at(path);
  }

  std::string text(const nlohmann::json& document, const std::string& pointer) const {
    const auto& value = at(document, pointer);
    if (!value.is_string() || value.get<std::string>().empty() || value.get<std::string>().size() > 200)
      fail(pointer, "expected a name of 1 to 200 characters");
    return value.get<std::string>();
  }

  double figure(const nlohmann::json& document, const std::string& pointer, bool zero_allowed) const {
    const auto& value = at(document, pointer);
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0 ||
        (!zero_allowed && value.get<double>() == 0))
      fail(pointer, zero_allowed ? "expected a number, 0 or above" : "expected a number above 0");
    return value.get<double>();
  }

  std::int64_t whole(const nlohmann::json& document, const std::string& pointer, std::int64_t low, std::int64_t high) const {
    const auto& value = at(document, pointer);
    if (!value.is_number_integer() || value.get<std::int64_t>() < low || value.get<std::int64_t>() > high)
      fail(pointer, "expected a whole number from " + std::to_string(low) + " to " + std::to_string(high));
    return value.get<std::int64_t>();
  }

  int node(const nlohmann::json& document, const std::string& pointer, const Topology& topology) const {
    const std::string name = text(document, pointer);
    for (int index = 0; index < topology.node_count(); ++index) {
      const std::string& label = topology.node_names[static_cast<std::size_t>(index)];
      if ((index < topology.gpus ? gpu_name(label) : label) == name) return index;
    }
    fail(pointer, "no GPU or switch named '" + shortened_for_message(name) + "' (GPUs are gpu0 to gpu" +
                      std::to_string(topology.gpus - 1) + "; switches are listed under switches)");
  }

  void read_link(const nlohmann::json& document, const std::string& pointer, Topology& topology) const {
    const auto& link = at(document, pointer);
    if (!link.is_object()) fail(pointer, "expected an object with from, to and bytes_per_second");
    for (const auto& [name, value] : link.items())
      if (name != "from" && name != "to" && name != "bytes_per_second" && name != "latency_seconds" &&
          name != "alpha_seconds" && name != "class" && name != "channel_bytes_per_second" && name != "duplex")
        fail(pointer + "/" + name, "unknown field '" + name +
                                       "' (expected from, to, bytes_per_second, latency_seconds, alpha_seconds, "
                                       "class, channel_bytes_per_second, duplex)");
    LinkModel model;
    model.key = link.contains("class") ? text(document, pointer + "/class") : "custom";
    model.alpha_seconds = link.contains("alpha_seconds") ? figure(document, pointer + "/alpha_seconds", true) : 0;
    model.hop_latency_seconds =
        link.contains("latency_seconds") ? figure(document, pointer + "/latency_seconds", true) : 0;
    model.channel_bytes_per_second = link.contains("channel_bytes_per_second")
                                         ? figure(document, pointer + "/channel_bytes_per_second", true)
                                         : 0;
    const double bandwidth = figure(document, pointer + "/bytes_per_second", false);
    const int from = node(document, pointer + "/from", topology);
    const int to = node(document, pointer + "/to", topology);
    if (from == to) fail(pointer + "/to", "a link must join two different nodes");
    bool duplex = true;
    if (link.contains("duplex")) {
      if (!link["duplex"].is_boolean()) fail(pointer + "/duplex", "expected true or false");
      duplex = link["duplex"].get<bool>();
    }
    if (duplex) {
      add_duplex_link(topology, from, to, model, bandwidth);
    } else {
      topology.links.push_back({from, to, bandwidth, model.hop_latency_seconds, model.key, model.alpha_seconds,
                                model.channel_bytes_per_second});
    }
  }

  std::string text_;
  std::string source_;
};

bool ends_with_json(std::string_view spec) {
  return spec.size() >= 5 && spec.substr(spec.size() - 5) == ".json";
}

}  // namespace

Topology topology_from_spec(std::string_view spec, std::string_view field) {
  if (!ends_with_json(spec)) return topology_preset(spec, field);
  const std::string path(spec);
  const std::string source = "topology file " + path;
  Topology topology = TopologyFileReader(read_input_text(path, "topology file", kMaxTopologyFileBytes), source).read();
  topology.key = path;
  return topology;
}

}  // namespace ringviz
