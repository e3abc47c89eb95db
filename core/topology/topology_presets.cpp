// --topology's presets, built from the LinkModel presets (link_model.cpp has their figures;
// docs/architecture.md, "Topology and contention", the machines they stand for).
#include <charconv>
#include <optional>

#include "core/model/config.h"
#include "core/model/input_error.h"
#include "core/topology/topology.h"

namespace ringviz {

namespace {

constexpr std::string_view kForms = "nvswitch:N | ring:N | pcie:N | nodes:MxG | nodes-rail:MxG";

std::optional<int> whole_number(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}

std::string gpus_text(int gpus) { return std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs"); }
std::string gpus_text_zh(int gpus) { return std::to_string(gpus) + " 个 GPU"; }

// Every GPU one port of NVLink 4 into one NVSwitch: any pair at full bandwidth unless two
// transfers share a port.
Topology nvswitch(int gpus) {
  const LinkModel& nvlink = find_link_preset("nvlink4");
  Topology topology = topology_with_gpus(gpus);
  topology.label = gpus_text(gpus) + " on one NVSwitch (NVLink 4)";
  topology.label_zh = gpus_text_zh(gpus) + " 接在一台 NVSwitch 上（NVLink 4）";
  const int fabric = add_switch(topology, "NVSwitch");
  for (int gpu = 0; gpu < gpus; ++gpu) add_duplex_link(topology, gpu, fabric, nvlink, nvlink.bytes_per_second);
  return topology;
}

// NVLink only between neighbours: each GPU's 450 GB/s split over its two neighbours. Other
// pairs are routed through the GPUs in between.
Topology ring(int gpus) {
  const LinkModel& nvlink = find_link_preset("nvlink4");
  Topology topology = topology_with_gpus(gpus);
  topology.label = gpus_text(gpus) + " in a ring of NVLink 4 (225 GB/s to each neighbour)";
  topology.label_zh = gpus_text_zh(gpus) + " 连成 NVLink 4 环（到每个邻居 225 GB/s）";
  if (gpus == 2) add_duplex_link(topology, 0, 1, nvlink, nvlink.bytes_per_second);
  if (gpus > 2)
    for (int gpu = 0; gpu < gpus; ++gpu) add_duplex_link(topology, gpu, (gpu + 1) % gpus, nvlink, nvlink.bytes_per_second / 2);
  return topology;
}

// Two PCIe 5 switches, each holding half the GPUs, whose x16 uplinks meet at the root complex:
// every transfer between the halves shares the two uplinks.
Topology pcie(int gpus) {
  const LinkModel& link = find_link_preset("pcie5");
  Topology topology = topology_with_gpus(gpus);
  topology.label = gpus_text(gpus) + " under two PCIe 5 switches sharing the root complex";
  topology.label_zh = gpus_text_zh(gpus) + " 分挂在两台共享根复合体的 PCIe 5 交换机下";
  const int root = add_switch(topology, "root complex");
  const int left = add_switch(topology, "PCIe switch 0");
  const int right = add_switch(topology, "PCIe switch 1");
  add_duplex_link(topology, left, root, link, link.bytes_per_second);
  add_duplex_link(topology, right, root, link, link.bytes_per_second);
  for (int gpu = 0; gpu < gpus; ++gpu)
    add_duplex_link(topology, gpu, gpu < (gpus + 1) / 2 ? left : right, link, link.bytes_per_second);
  return topology;
}

// M machines of G GPUs on an NVSwitch each, joined by one InfiniBand NDR switch: one NIC per
// machine (every transfer between machines shares it) or, rail-optimised, one per GPU.
Topology nodes(int machines, int per_machine, bool nic_per_gpu) {
  const LinkModel& nvlink = find_link_preset("nvlink4");
  const LinkModel& ib = find_link_preset("ib400");
  Topology topology = topology_with_gpus(machines * per_machine);
  topology.label = std::to_string(machines) + " machines of " + gpus_text(per_machine) + " on NVSwitch, " +
                   (nic_per_gpu ? "one 400 Gb/s NIC per GPU" : "one 400 Gb/s NIC per machine");
  topology.label_zh = std::to_string(machines) + " 台机器，每台 " + gpus_text_zh(per_machine) + " 接 NVSwitch，" +
                      (nic_per_gpu ? "每个 GPU 一块 400 Gb/s 网卡" : "每台机器一块 400 Gb/s 网卡");
  topology.machines = machines;
  const int network = add_switch(topology, "InfiniBand switch");
  for (int machine = 0; machine < machines; ++machine) {
    const int fabric = add_switch(topology, "NVSwitch " + std::to_string(machine));
    if (!nic_per_gpu) add_duplex_link(topology, fabric, network, ib, ib.bytes_per_second);
    for (int local = 0; local < per_machine; ++local) {
      const int gpu = machine * per_machine + local;
      add_duplex_link(topology, gpu, fabric, nvlink, nvlink.bytes_per_second);
      if (nic_per_gpu) add_duplex_link(topology, gpu, network, ib, ib.bytes_per_second);
    }
  }
  return topology;
}

}  // namespace

std::string topology_preset_forms() { return std::string(kForms); }

Topology topology_preset(std::string_view spec, std::string_view field) {
  const std::string refusal = std::string(field) + ": unknown topology '" + std::string(spec) + "' (expected " +
                              std::string(kForms) + " with N, M, G from 1, at most " +
                              std::to_string(kMaxRanks) + " GPUs in all, or a FILE.json)";
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) throw InputError(refusal);
  const std::string_view kind = spec.substr(0, colon);
  const std::string_view size = spec.substr(colon + 1);
  Topology topology;
  if (kind == "nodes" || kind == "nodes-rail") {
    const std::size_t x = size.find('x');
    const auto machines = x == std::string_view::npos ? std::nullopt : whole_number(size.substr(0, x));
    const auto per_machine = x == std::string_view::npos ? std::nullopt : whole_number(size.substr(x + 1));
    if (!machines || !per_machine || *machines > kMaxRanks || *per_machine > kMaxRanks ||
        *machines * *per_machine > kMaxRanks)
      throw InputError(refusal);
    topology = nodes(*machines, *per_machine, kind == "nodes-rail");
  } else {
    const auto gpus = whole_number(size);
    if (!gpus || *gpus > kMaxRanks) throw InputError(refusal);
    if (kind == "nvswitch") topology = nvswitch(*gpus);
    else if (kind == "ring") topology = ring(*gpus);
    else if (kind == "pcie") topology = pcie(*gpus);
    else throw InputError(refusal);
  }
  topology.key = std::string(spec);
  topology.gamma_seconds_per_byte = find_link_preset("nvlink4").gamma_seconds_per_byte;
  return topology;
}

}  // namespace ringviz
