#include "app/capture/nccl/nccl_join.h"

#include <optional>

#include <mpi.h>

#include "app/capture/mpi/mpi_world.h"
#include "gpu/device/cuda_devices.h"

namespace ringviz::capture {

namespace {

struct Placement {
  int rank = 0;
  int ranks = 0;
  int local_rank = 0;
  std::string host;
};

Placement place_this_rank() {
  Placement placement;
  placement.rank = world_rank();
  placement.ranks = world_size();
  // The ranks that share this host's memory are the ranks that share its GPUs.
  MPI_Comm host_ranks = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, placement.rank, MPI_INFO_NULL, &host_ranks);
  MPI_Comm_rank(host_ranks, &placement.local_rank);
  MPI_Comm_free(&host_ranks);
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  placement.host.assign(name, static_cast<std::size_t>(length));
  return placement;
}

// Why this rank cannot run NCCL on GPU `local_rank` of its host. first_refusal() puts "rank N: "
// before the sentence of any rank but 0.
std::optional<std::string> why_this_rank_cannot_run(const Placement& placement) {
  if (const gpu::NcclLibraryState library = gpu::nccl_library_state(); !library.usable)
    return (library.found ? library.reason : "libnccl.so.2 not found") + " on host " + placement.host +
           "; install NCCL (libnccl2) or use --transport mpi";
  const gpu::CudaProbe& probe = gpu::probe_cuda();
  if (!probe.usable)
    return "--transport nccl on host " + placement.host + ": " + probe.reason + "; use --transport mpi";
  const int visible = static_cast<int>(probe.devices.size());
  if (placement.local_rank >= visible)
    return "it is local rank " + std::to_string(placement.local_rank) + " on host " + placement.host + " but only " +
           std::to_string(visible) + (visible == 1 ? " GPU is" : " GPUs are") + " visible there; start at most " +
           std::to_string(visible) + (visible == 1 ? " rank" : " ranks") + " per host";
  return std::nullopt;
}

}  // namespace

std::unique_ptr<gpu::NcclRankEngine> join_nccl(std::string& refusal) {
  const Placement placement = place_this_rank();
  if (auto first = first_refusal(why_this_rank_cannot_run(placement))) {
    refusal = *first;
    return nullptr;
  }
  gpu::NcclUniqueIdBytes id{};
  if (placement.rank == 0) id = gpu::make_nccl_unique_id();
  MPI_Bcast(id.data(), static_cast<int>(id.size()), MPI_BYTE, 0, MPI_COMM_WORLD);
  return std::make_unique<gpu::NcclRankEngine>(placement.local_rank, placement.ranks, placement.rank, id);
}

}  // namespace ringviz::capture
