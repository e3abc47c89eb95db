#include "app/capture/transport_factory.h"

#include "app/capture/mpi/mpi_transport.h"
#ifdef RINGVIZ_WITH_NCCL
#include "app/capture/nccl_transport.h"
#endif

namespace ringviz::capture {

std::unique_ptr<RankTransport> make_rank_transport(const std::string& name, std::string& unavailable) {
  if (name == "mpi") return make_mpi_transport();
  if (name == "nccl") {
#ifdef RINGVIZ_WITH_NCCL
    return make_nccl_transport();
#else
    unavailable = "--transport nccl: this ringviz-capture was built without the NCCL transport; use --transport mpi";
    return nullptr;
#endif
  }
  unavailable = "--transport: unknown transport '" + name + "'; choose mpi or nccl";
  return nullptr;
}

}  // namespace ringviz::capture
