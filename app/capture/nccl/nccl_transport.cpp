#include "app/capture/nccl/nccl_transport.h"

#include <chrono>
#include <string>
#include <thread>

#include <mpi.h>

#include "core/model/input_error.h"
#include "gpu/device/cuda_devices.h"
#include "gpu/nccl/nccl_rank_engine.h"

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
  MPI_Comm_rank(MPI_COMM_WORLD, &placement.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &placement.ranks);
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

// Why this rank cannot run NCCL on GPU `local_rank` of its host, or "".
std::string why_this_rank_cannot_run(const Placement& placement) {
  const std::string where = "rank " + std::to_string(placement.rank) + " on host " + placement.host;
  if (!gpu::nccl_library_unavailable_reason().empty()) {
    const std::string reason = gpu::nccl_library_unavailable_reason();
    const bool missing = reason.rfind("libnccl.so.2 not found", 0) == 0;
    return "--transport nccl: " + (missing ? std::string("libnccl.so.2 not found") : reason) + " (" + where +
           "); install NCCL (libnccl2) or use --transport mpi";
  }
  const gpu::CudaProbe& probe = gpu::probe_cuda();
  if (!probe.usable)
    return "--transport nccl: " + where + " has no usable CUDA device (" + probe.reason +
           "); use --transport mpi";
  const int visible = static_cast<int>(probe.devices.size());
  if (placement.local_rank >= visible)
    return where + " has local rank " + std::to_string(placement.local_rank) + " but only " +
           std::to_string(visible) + (visible == 1 ? " GPU is" : " GPUs are") + " visible; start at most " +
           std::to_string(visible) + (visible == 1 ? " rank" : " ranks") + " per host";
  return "";
}

// Every rank learns whether any rank failed and, if so, the lowest failing rank's sentence:
// a rank that stopped alone would leave the others waiting in NCCL forever.
void agree_or_throw(const Placement& placement, const std::string& problem) {
  const int mine = problem.empty() ? placement.ranks : placement.rank;
  int first = placement.ranks;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == placement.ranks) return;
  int length = static_cast<int>(problem.size());
  MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
  std::string message = problem;
  message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, first, MPI_COMM_WORLD);
  throw InputError(message);
}

class NcclTransport final : public RankTransport {
 public:
  NcclTransport(int device, int ranks, int rank, const gpu::NcclUniqueIdBytes& id)
      : rank_(rank), engine_(device, ranks, rank, id) {}

  std::string name() const override { return "nccl"; }
  int device() const override { return engine_.device(); }

  void load(const CollectiveShape& shape, int rank, const ByteBuffer& initial) override {
    if (rank != rank_) throw std::logic_error("NcclTransport: loaded for another rank");
    shape_ = shape;
    engine_.load(shape, initial);
  }

  void fetch(ByteBuffer& buffer) override { engine_.fetch(buffer); }

  // The round's three host waits (posted, arrived, folded) are its spans.
  RoundSpans execute(const RoundPlan& plan, const Round&, double delay_seconds) override {
    RoundSpans spans;
    spans.start = capture_clock_seconds();
    plan_rank_exchange(plan, rank_, exchange_);
    if (delay_seconds > 0) {
      std::this_thread::sleep_for(std::chrono::duration<double>(delay_seconds));
      spans.delay = capture_clock_seconds() - spans.start;
    }
    engine_.post(plan, exchange_);
    spans.posted = capture_clock_seconds();
    engine_.wait_for_arrivals();
    spans.arrived = capture_clock_seconds();
    engine_.fold(plan);
    spans.end = capture_clock_seconds();
    for (const ExchangeSend& send : exchange_.sends) spans.bytes_sent += slot_bytes(send.slot);
    for (const ExchangeReceive& receive : exchange_.receives) spans.bytes_received += slot_bytes(receive.slot);
    return spans;
  }

 private:
  std::int64_t slot_bytes(int slot) const {
    return shape_.layout[slot].count * static_cast<std::int64_t>(dtype_size(shape_.dtype));
  }

  int rank_ = 0;
  CollectiveShape shape_;
  RankExchange exchange_;
  gpu::NcclRankEngine engine_;
};

}  // namespace

std::unique_ptr<RankTransport> make_nccl_transport() {
  const Placement placement = place_this_rank();
  agree_or_throw(placement, why_this_rank_cannot_run(placement));
  gpu::NcclUniqueIdBytes id{};
  if (placement.rank == 0) id = gpu::make_nccl_unique_id();
  MPI_Bcast(id.data(), static_cast<int>(id.size()), MPI_BYTE, 0, MPI_COMM_WORLD);
  return std::make_unique<NcclTransport>(placement.local_rank, placement.ranks, placement.rank, id);
}

}  // namespace ringviz::capture
