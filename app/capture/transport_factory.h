#pragma once
// Which RankTransport `--transport NAME` gets (docs/architecture.md, "Capture").
#include <memory>
#include <string>

#include "app/capture/transport/rank_transport.h"

namespace ringviz::capture {

// The transport names the parser accepts, whether or not this build has them.
inline constexpr const char* kTransportNames[] = {"mpi", "nccl"};

// Needs MPI initialised. Returns null and sets `unavailable` to a sentence (the reason and the
// fix) when `name` is not built in.
std::unique_ptr<RankTransport> make_rank_transport(const std::string& name, std::string& unavailable);

}  // namespace ringviz::capture
