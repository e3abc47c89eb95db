#pragma once
// What NCCL sees of a machine when it tunes (docs/nccl-model.md, "The machine as NCCL sees
// it"): the kind of link inside a machine (NVLink, PCIe) and between machines, the GPU
// generation, one GPU's bandwidth as NCCL counts it, its channels, and whether the GPUs share
// an NVSwitch that reduces (NVLink SHARP).
#include <string>

#include "core/topology/link_model.h"
#include "core/topology/topology.h"

namespace ringviz {

// NCCL's three hardware classes, each with its own per-step latencies.
enum class NcclFabric { nvlink, pci, net };
enum class GpuGeneration { ampere, hopper };

struct NcclMachine {
  int gpus = 1;
  int machines = 1;
  NcclFabric intra = NcclFabric::nvlink;
  GpuGeneration generation = GpuGeneration::hopper;
  // One GPU's bandwidth inside its machine as NCCL's topology counts it (NVLink: its links
  // times NCCL's per-link figure), bytes per second per direction.
  double intra_bytes_per_second = 0;
  // One machine's network bandwidth (its NICs together); 0 with one machine.
  double inter_bytes_per_second = 0;
  int channels = 1;          // what the predictions run on
  int default_channels = 1;  // what NCCL's search would find
  double channel_bytes_per_second = 0;  // one channel's rate
  // Every GPU of one machine on one switch of NVLink 4: NVLS can run.
  bool nvls = false;
  std::string why;     // one line: which facts made it ("18 NVLink 4 links x 20.6 GB/s ...")
  std::string why_zh;  // the same in Chinese
};

// `channels` 0: NCCL's default for the machine; otherwise what --channels asked for.
NcclMachine nccl_machine(const Topology& topology, int channels = 0);
// A job's machine: `gpus` GPUs of one node on `link` (core/job/assumed_link.h), through a switch.
NcclMachine nccl_machine(const LinkModel& link, int gpus, int channels = 0);

}  // namespace ringviz
