#pragma once
// nccl-tests' way of counting a collective's bytes and bandwidth, which `bench` and `job show`
// print so that their figures compare with nccl-tests' and with each other.
#include <cstdint>

#include "core/model/config.h"
#include "core/model/dtype.h"

namespace ringviz {

// nccl-tests' "size": the bytes of the larger buffer of one rank (AllGather: its whole output,
// N x count; every other op: its input).
std::int64_t nccl_tests_size_bytes(Op op, std::int64_t count, DType dtype, int ranks);
// nccl-tests' bus bandwidth factor: AllReduce 2(n-1)/n; AllGather, ReduceScatter and AllToAll
// (n-1)/n; Broadcast and send/recv 1.
double bus_bandwidth_factor(Op op, int ranks);

}  // namespace ringviz
