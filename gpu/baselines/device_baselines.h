#pragma once
// What `ringviz bench --backend cuda` compares the ring with: a plain device-to-device copy on
// one GPU, and, with two or more GPUs, NCCL's own ring collectives at the same sizes.
// No CUDA or NCCL header here.
#include <cstdint>
#include <string>

#include "core/model/config.h"

namespace ringviz::gpu {

// Bytes read plus bytes written per second by cudaMemcpy of a `bytes`-sized buffer from one
// allocation to another on CUDA device `device` (as core's benchmark counts traffic).
double device_copy_bandwidth(std::uint64_t bytes, int device = 0);

struct NcclTiming {
  int ranks = 0;              // one per GPU
  double microseconds = 0;    // mean time of one collective over all GPUs (host wall clock)
  int iterations = 0;
};

// Empty when NCCL can run a baseline on `gpus` GPUs; otherwise why not (one sentence): this
// build found no NCCL, libnccl could not be loaded, fewer than two GPUs.
std::string nccl_unavailable_reason(int gpus);

// "NCCL 2.27.7" or "" when unavailable.
std::string nccl_version_text();

// Times ncclAllReduce / ncclReduceScatter / ncclAllGather with NCCL_ALGO=Ring (set before
// NCCL starts) on the first `gpus` visible GPUs, one rank each, with `count` elements per rank
// as the collective semantics define it (ReduceScatter: count / gpus per output chunk). Throws
// CudaError when NCCL fails.
NcclTiming time_nccl_collective(Op op, DType dtype, ReduceOp reduce, std::int64_t count, int gpus,
                                int warmup, int iterations);

}  // namespace ringviz::gpu
