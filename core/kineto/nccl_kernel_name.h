#pragma once
// What an NCCL kernel's name says NCCL chose: `ncclKernel_AllReduce_RING_LL_Sum_float(...)`,
// `ncclDevKernel_AllGather_RING_LL(...)`, `ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(...)`.
#include <optional>
#include <string>
#include <string_view>

namespace ringviz {

struct NcclKernelName {
  std::string collective;  // "AllReduce", "SendRecv"
  std::string algorithm;   // "RING", "TREE", "NVLS", "COLLNET_DIRECT"; empty for a generic kernel
  std::string protocol;    // "LL", "LL128", "SIMPLE"; empty for a generic kernel
};

// nullopt for a name that is not an NCCL kernel's.
std::optional<NcclKernelName> parse_nccl_kernel_name(std::string_view name);

}  // namespace ringviz
