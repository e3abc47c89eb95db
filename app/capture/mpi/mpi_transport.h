#pragma once
// The host-memory transport of `ringviz capture` (docs/architecture.md, "Capture"): this
// rank's buffer in host memory, each round's transfers as nonblocking MPI point-to-point
// messages on the world communicator, the folds by core's slot kernels.
#include <memory>

#include "app/capture/transport/rank_transport.h"

namespace ringviz::capture {

// Needs MPI initialised; the rank is this process's rank of MPI_COMM_WORLD.
std::unique_ptr<RankTransport> make_mpi_transport();

}  // namespace ringviz::capture
