#pragma once
// Whether this process was started by an MPI launcher (docs/architecture.md, "Capture"),
// asked before MPI_Init: a singleton `ringviz capture` is refused rather than run as a ring
// of one by accident.
#include <string>

namespace ringviz::capture {

bool started_by_mpi_launcher();
// The one-line refusal: how to launch instead.
std::string launch_hint();

}  // namespace ringviz::capture
