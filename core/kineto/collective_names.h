#pragma once
// PyTorch's names for collectives and element types, as profiler traces write them, in
// ringviz's words (docs/job-format.md).
#include <optional>
#include <string>
#include <string_view>

#include "core/model/config.h"
#include "core/model/dtype.h"

namespace ringviz {

enum class TracedCollective {
  stepped,      // one of ringviz's ops
  not_data,     // wait, barrier: moves no user data, left out without a note
  unsupported,  // gather, scatter, reduce, ...: left out with a note
};

struct CollectiveName {
  TracedCollective kind = TracedCollective::unsupported;
  Op op = Op::allreduce;  // when stepped
};

// "allreduce", "_allgather_base", "all_gather_into_tensor", "reduce_scatter_tensor_coalesced",
// "all_to_all_single", "send" (record_param_comms), or "all_reduce" (nccl:all_reduce).
CollectiveName classify_collective(std::string_view pytorch_name);

// The schedule ringviz steps a collective with, from what the library said it ran: NCCL's TREE
// is ringviz's tree where the tree has the op; everything else NCCL runs (RING, NVLS, COLLNET)
// is shown on the ring (AllToAll: direct exchanges), with NCCL's name kept beside it.
Algorithm algorithm_for_library(Op op, std::string_view library_algorithm);

// "Float", "BFloat16", "Long" (record_param_comms) or "float", "c10::Half" (Input type).
std::optional<DType> dtype_of_pytorch(std::string_view name);

}  // namespace ringviz
