#pragma once
// The kinds of link a GPU talks over, with α, β and γ (docs/architecture.md, "Topology and contention"):
// the contention-free model prices a schedule on one of them, and the topology presets build
// their links from them.
#include <span>
#include <string>
#include <string_view>

namespace ringviz {

struct LinkModel {
  std::string key;    // what --link takes: "nvlink4"
  std::string label;  // "NVLink 4 (H100/H200)"
  double alpha_seconds = 0;           // per message
  double bytes_per_second = 1;        // per direction per GPU; β = 1 / bytes_per_second
  double gamma_seconds_per_byte = 0;  // per byte reduced
  std::string note;                   // where α comes from, in one line
  // For topologies (core/topology/topology.h): the wire and switch latency of one hop, and the
  // rate one channel's worker copies or reduces over this link (0: no cap).
  double hop_latency_seconds = 0;
  double channel_bytes_per_second = 0;

  double beta() const { return 1.0 / bytes_per_second; }
};

// NVLink 4 and 3, PCIe 4 and 5, InfiniBand 100 and 400 Gb/s (see link_model.cpp for the figures).
std::span<const LinkModel> link_presets();
// Throws InputError naming `field` and the preset keys.
const LinkModel& find_link_preset(std::string_view key, std::string_view field = "--link");
// A preset's note in Chinese (`ringviz compare --lang zh`); empty for a key that is no preset.
std::string_view link_note_zh(std::string_view key);

}  // namespace ringviz
