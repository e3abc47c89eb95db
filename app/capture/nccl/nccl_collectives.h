#pragma once
// NCCL's own collective beside the ring in `ringviz capture --transport nccl --iters` (the rows
// of app/capture/mpi/library_collectives.h; docs/architecture.md, "The NCCL transport").
#include <string>
#include <vector>

#include "app/capture/mpi/library_collectives.h"

namespace ringviz::capture {

// Collective. The ncclAllReduce, ncclReduceScatter or ncclAllGather row for `config`, on a
// communicator of its own on this rank's GPU; none (with a note) when NCCL cannot run here.
std::vector<LibraryCollective> nccl_library_collectives(const Config& config, std::vector<std::string>& notes);

}  // namespace ringviz::capture
