#pragma once
// `--transport nccl` (docs/architecture.md, "The NCCL transport"): each rank's buffer on a GPU
// of its host, the rounds moved by NCCL's point-to-point calls, the folds by the CUDA
// backend's kernels (gpu/nccl/nccl_rank_engine.*). Built only with CUDA (RINGVIZ_WITH_NCCL).
#include <memory>
#include <string>

#include "app/capture/transport/rank_transport.h"

namespace ringviz::capture {

// Collective: every rank of MPI_COMM_WORLD calls it (see join_nccl()). Null, with
// `unavailable` set to the same sentence on every rank, when NCCL cannot run here.
std::unique_ptr<RankTransport> make_nccl_transport(std::string& unavailable);

}  // namespace ringviz::capture
