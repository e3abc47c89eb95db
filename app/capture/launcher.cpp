#include "app/capture/launcher.h"

#include <cstdlib>

namespace ringviz::capture {

bool started_by_mpi_launcher() {
  // OpenMPI's mpirun, and the PMI / PMIx environments of MPICH, Slurm's srun and OpenMPI 5.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

std::string launch_hint() {
  return "capture runs one process per rank under an MPI launcher, and none started this one; run e.g. "
         "mpirun -np 4 ringviz capture --op allreduce --count 16M --out run.json";
}

}  // namespace ringviz::capture
