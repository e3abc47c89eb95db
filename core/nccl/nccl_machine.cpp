#include "core/nccl/nccl_machine.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ringviz {

namespace {

// NCCL's view of one kind of GPU link (docs/nccl-model.md, "The machine as NCCL sees it").
struct LinkFacts {
  const char* key;
  NcclFabric fabric;
  GpuGeneration generation;
  int links;                // NVLinks per GPU (NVIDIA's data sheets: A100 SXM 12, H100 SXM 18)
  double per_link_gbs;      // NCCL's figure for one NVLink (its topo.h: SM80 20.0, SM90 20.6)
  double top_channel_gbs;   // the fastest per-channel speed NCCL's search tries (SM80 40, SM90 60)
};

constexpr LinkFacts kNvlinkFacts[] = {
    {"nvlink4", NcclFabric::nvlink, GpuGeneration::hopper, 18, 20.6, 60.0},
    {"nvlink3", NcclFabric::nvlink, GpuGeneration::ampere, 12, 20.0, 40.0},
};

const LinkFacts* nvlink_facts(const std::string& key) {
  for (const LinkFacts& facts : kNvlinkFacts)
    if (key == facts.key) return &facts;
  return nullptr;
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

std::string gbs(double bytes_per_second) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g GB/s", bytes_per_second / 1e9);
  return text;
}

// The channels and per-channel rate. On NVLink, NCCL's search fits as many rings as the GPU's
// bandwidth holds at its fastest per-channel speed, then doubles the channels at half the speed
// (its channel duplication for speeds of 25 GB/s and more). Elsewhere: two channels sharing the
// link, an assumption.
void set_channels(NcclMachine& machine, const LinkFacts* facts, int channels) {
  if (facts) {
    const double top = facts->top_channel_gbs * 1e9;
    machine.default_channels = 2 * std::max(1, static_cast<int>(std::floor(machine.intra_bytes_per_second / top)));
    machine.channel_bytes_per_second = top / 2;
  } else {
    machine.default_channels = 2;
    machine.channel_bytes_per_second = machine.intra_bytes_per_second / 2;
  }
  machine.channels = channels > 0 ? channels : machine.default_channels;
}

NcclMachine machine_of_link_class(const std::string& link_class, double topology_bytes_per_second, int gpus,
                                  int channels) {
  NcclMachine machine;
  machine.gpus = gpus;
  const LinkFacts* facts = nvlink_facts(link_class);
  if (facts) {
    machine.intra = facts->fabric;
    machine.generation = facts->generation;
    machine.intra_bytes_per_second = facts->links * facts->per_link_gbs * 1e9;
    char why[200];
    std::snprintf(why, sizeof why, "%d %s links x %.3g GB/s as NCCL counts them = %s per GPU", facts->links,
                  link_class.c_str(), facts->per_link_gbs, gbs(machine.intra_bytes_per_second).c_str());
    machine.why = why;
    std::snprintf(why, sizeof why, "每个 GPU %d 条 %s 链路，按 NCCL 的计法每条 %.3g GB/s，共 %s", facts->links,
                  link_class.c_str(), facts->per_link_gbs, gbs(machine.intra_bytes_per_second).c_str());
    machine.why_zh = why;
  } else {
    machine.intra = starts_with(link_class, "pcie") ? NcclFabric::pci : NcclFabric::net;
    machine.intra_bytes_per_second = topology_bytes_per_second;
    machine.why = link_class + " at its nominal " + gbs(topology_bytes_per_second) + " per GPU";
    machine.why_zh = link_class + "，按标称每个 GPU " + gbs(topology_bytes_per_second);
  }
  set_channels(machine, facts, channels);
  return machine;
}

}  // namespace

NcclMachine nccl_machine(const Topology& topology, int channels) {
  // A GPU's first link says what it is attached by; the slowest GPU link counts.
  std::string link_class;
  double slowest = 0;
  int attached_to = -2;  // the one node every GPU's first link reaches, -1 when they differ
  for (int gpu = 0; gpu < topology.gpus; ++gpu) {
    for (const TopologyLink& link : topology.links) {
      if (link.from != gpu) continue;
      if (link_class.empty()) link_class = link.link_class;
      if (slowest == 0 || link.bytes_per_second < slowest) slowest = link.bytes_per_second;
      attached_to = attached_to == -2 || attached_to == link.to ? link.to : -1;
      break;
    }
  }
  NcclMachine machine = machine_of_link_class(link_class, slowest, topology.gpus, channels);
  machine.machines = std::max(1, topology.machines);
  if (machine.machines > 1) {
    // The network between machines: every InfiniBand link (both directions listed), shared out.
    double network = 0;
    for (const TopologyLink& link : topology.links)
      if (starts_with(link.link_class, "ib")) network += link.bytes_per_second;
    network /= 2;
    machine.inter_bytes_per_second = network / machine.machines;
    machine.why += "; the network " + gbs(machine.inter_bytes_per_second) + " per machine";
    machine.why_zh += "；机器之间的网络每台 " + gbs(machine.inter_bytes_per_second);
  }
  // NVLS: one machine whose GPUs all hang off the same switch over NVLink 4.
  machine.nvls = machine.machines == 1 && link_class == "nvlink4" && attached_to >= topology.gpus;
  return machine;
}

NcclMachine nccl_machine(const LinkModel& link, int gpus, int channels) {
  NcclMachine machine = machine_of_link_class(link.key, link.bytes_per_second, gpus, channels);
  machine.nvls = link.key == "nvlink4";
  return machine;
}

}  // namespace ringviz
