#pragma once
// How a rank of `ringviz capture` joins NCCL (docs/architecture.md, "The NCCL transport"): the
// GPU of its local rank on its host, and a communicator whose id rank 0 makes and MPI hands
// to every rank. The transport and the --iters rows each join once.
#include <memory>
#include <string>

#include "gpu/nccl/nccl_rank_engine.h"

namespace ringviz::capture {

// Collective over MPI_COMM_WORLD. Null, with `refusal` set to the same sentence on every rank
// (the lowest failing rank's), when libnccl is missing or a rank has no GPU of its own; a
// rank that stopped alone would leave the others waiting in NCCL. Throws CudaError when NCCL
// itself fails.
std::unique_ptr<gpu::NcclRankEngine> join_nccl(std::string& refusal);

}  // namespace ringviz::capture
