// ringviz-capture: `ringviz capture` after execv, one process per MPI rank (docs/architecture.md,
// "Capture"). Built only where MPI was found; the GUI binary never links MPI.
#include <iostream>

#include <mpi.h>

#include "app/capture/transport_factory.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  std::string unavailable;
  auto transport = ringviz::capture::make_rank_transport("mpi", unavailable);
  MPI_Finalize();
  return transport ? 0 : 2;
}
