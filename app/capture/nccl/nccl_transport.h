#pragma once
// `--transport nccl` (docs/architecture.md, "The NCCL transport"): each rank's buffer on a GPU
// of its host, the rounds moved by NCCL, the folds by the CUDA backend's kernels. This file
// is MPI's side of it: which GPU a rank takes and how the ranks share one communicator id;
// gpu/nccl/nccl_rank_engine.* does the rest. Built only with CUDA (RINGVIZ_WITH_NCCL).
#include <memory>

#include "app/capture/rank_transport.h"

namespace ringviz::capture {

// Needs MPI initialised, and is collective: every rank of MPI_COMM_WORLD calls it. A rank
// takes the GPU whose index is its rank among the ranks on its host. Throws InputError on
// every rank, with the first failing rank's sentence, when libnccl is missing or a rank has no
// GPU of its own; CudaError when NCCL fails.
std::unique_ptr<RankTransport> make_nccl_transport();

}  // namespace ringviz::capture
