#include "core/job/assumed_link.h"

namespace ringviz {

namespace {

bool names(const std::string& gpu, const char* model) { return gpu.find(model) != std::string::npos; }

}  // namespace

AssumedLink assumed_link(const JobInfo& info) {
  const std::string& gpu = info.gpu;
  // SXM boards of one node talk through NVSwitch; PCIe boards (the names say "PCIe") do not.
  if (!gpu.empty() && !names(gpu, "PCIe")) {
    if (names(gpu, "H100") || names(gpu, "H200") || names(gpu, "H800") || names(gpu, "GH200"))
      return {&find_link_preset("nvlink4"), gpu + ": NVLink 4 through NVSwitch, one node"};
    if (names(gpu, "A100") || names(gpu, "A800"))
      return {&find_link_preset("nvlink3"), gpu + ": NVLink 3 through NVSwitch, one node"};
  }
  if (!gpu.empty() && info.backend == "nccl")
    return {&find_link_preset("pcie4"), gpu + ": no NVLink known for it, so PCIe 4.0"};
  return {nullptr, info.backend.empty() ? "no GPU named" : info.backend + " without a GPU named"};
}

}  // namespace ringviz
