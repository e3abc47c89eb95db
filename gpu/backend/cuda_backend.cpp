#include "gpu/backend/cuda_backend.h"

#include <cstdlib>
#include <utility>

#include "core/schedule/round_plan.h"
#include "gpu/backend/collective_graph.h"
#include "gpu/backend/rank_resources.h"
#include "gpu/backend/round_submitter.h"
#include "gpu/backend/timed_round.h"

namespace ringviz::gpu {

CudaBackendOptions CudaBackendOptions::from_environment() {
  CudaBackendOptions options;
  if (const char* chunk = std::getenv("RINGVIZ_CUDA_CHUNK_BYTES"); chunk && *chunk) {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(chunk, &end, 10);
    if (end && *end == '\0') options.pipeline_chunk_bytes = value;
  }
  if (const char* graphs = std::getenv("RINGVIZ_CUDA_GRAPHS"); graphs && std::string(graphs) == "0")
    options.use_graphs = false;
  return options;
}

// The backend's own state: what is queued, how the last submission ran and what it measured.
// Where ranks live, how a round reaches the streams and how many rounds become one graph are
// in rank_resources, round_submitter, timed_round and collective_graph.
struct CudaBackend::Impl {
  explicit Impl(CudaBackendOptions wanted)
      : options(std::move(wanted)), resources(options.devices), submitter(resources),
        graph(resources, submitter) {}

  CudaBackendOptions options;
  // Declared in the order they depend on each other: the graph uses the submitter, which
  // uses the ranks' resources.
  RankResources resources;
  RoundSubmitter submitter;
  CollectiveGraph graph;
  RoundPlanner planner;
  std::vector<Round> pending;  // executed rounds not yet submitted (see flush)

  std::optional<double> last_round_us;
  bool timing_pending = false;
  std::string last_submission = "nothing submitted yet";

  // Work still in flight (a submission an error cut short) finishes before the graph and the
  // buffers it uses are released.
  ~Impl() { resources.wait_quietly(); }

  void require_allocated(const char* what) const {
    if (!resources.allocated()) throw CudaError(std::string("CUDA backend: ") + what + " before load()");
  }

  void forget_submissions() {
    pending.clear();
    timing_pending = false;
    last_round_us.reset();
  }

  void allocate(const CollectiveShape& shape) {
    resources.synchronize();
    forget_submissions();
    graph.forget();
    resources.allocate(shape);
  }

  // One round as is, timed.
  void run_single(const Round& round) {
    submit_timed_round(resources, submitter, planner.plan(round, resources.shape()));
    timing_pending = true;
    last_submission = "1 round, one stream per rank";
  }

  void run_many(const std::vector<Round>& rounds) {
    std::vector<RoundPlan> plans;
    plans.reserve(rounds.size());
    for (const Round& round : rounds) {
      plans.push_back(planner.plan(round, resources.shape()));
      // A staged read needs a copy made and waited for before its round: no graph for that.
      if (!plans.back().staged_reads().empty()) {
        for (const Round& each : rounds) run_single(each);
        timing_pending = false;
        return;
      }
    }
    const int chunks = chunks_per_slot(rounds, resources.shape(), options.pipeline_chunk_bytes);
    const std::string description = std::to_string(rounds.size()) + " rounds, " + std::to_string(chunks) +
                                    (chunks == 1 ? " chunk" : " chunks") + " per slot";
    last_submission = description + ", " + graph.submit(rounds, plans, chunks, options.use_graphs);
  }

  // Submits the queued rounds and waits for them: afterwards every stream is idle.
  void flush() {
    if (pending.empty()) return;
    std::vector<Round> rounds = std::move(pending);
    pending.clear();
    timing_pending = false;
    last_round_us.reset();
    if (rounds.size() == 1)
      run_single(rounds.front());
    else
      run_many(rounds);
  }

  std::optional<double> measure_last_round() {
    if (!timing_pending) return last_round_us;
    timing_pending = false;
    last_round_us = timed_round_microseconds(resources);
    return last_round_us;
  }
};

CudaBackend::CudaBackend(CudaBackendOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

CudaBackend::~CudaBackend() = default;

void CudaBackend::allocate(const CollectiveShape& shape) { impl_->allocate(shape); }

void CudaBackend::load(const CollectiveShape& shape, const BufferState& state) {
  impl_->allocate(shape);
  impl_->resources.upload(state);
}

void CudaBackend::store(const BufferState& state) {
  impl_->require_allocated("store()");
  // Rounds queued before a restore would be overwritten by it: drop them unsubmitted.
  impl_->forget_submissions();
  impl_->resources.upload(state);
}

void CudaBackend::execute(const Round& round) {
  impl_->require_allocated("execute()");
  const CollectiveShape& shape = impl_->resources.shape();
  for (const Transfer& transfer : round.transfers)
    if (transfer.src < 0 || transfer.src >= shape.ranks || transfer.dst < 0 || transfer.dst >= shape.ranks ||
        transfer.slot < 0 || transfer.slot >= shape.layout.size() || transfer.source_slot() < 0 ||
        transfer.source_slot() >= shape.layout.size())
      throw CudaError("CUDA backend: a transfer names a rank or slot outside the loaded shape");
  impl_->pending.push_back(round);
}

void CudaBackend::fetch(BufferState& state) const {
  impl_->require_allocated("fetch()");
  impl_->flush();
  impl_->resources.download(state);
}

std::optional<double> CudaBackend::last_round_microseconds() const {
  if (!impl_->resources.allocated()) return std::nullopt;
  impl_->flush();
  return impl_->measure_last_round();
}

void CudaBackend::synchronize() {
  if (!impl_->resources.allocated()) return;
  impl_->flush();
  impl_->resources.synchronize();
}

const std::vector<DeviceInfo>& CudaBackend::devices() const { return impl_->resources.device_infos(); }

int CudaBackend::device_of_rank(int rank) const {
  const RankResources& resources = impl_->resources;
  return resources.device_infos()[static_cast<std::size_t>(resources.device_index_of_rank(rank))].index;
}

LinkKind CudaBackend::link(int src_rank, int dst_rank) const {
  return impl_->resources.link(src_rank, dst_rank);
}

PlacementReport CudaBackend::placement() const {
  PlacementReport report;
  for (const DeviceInfo& device : devices()) {
    DeviceDescription description;
    description.index = device.index;
    description.name = device.name;
    description.bytes_total = device.total_bytes;
    std::size_t free_bytes = 0, total_bytes = 0;
    QuietDeviceGuard guard(device.index);  // a report never throws
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
      description.bytes_total = total_bytes;
      description.bytes_used_all = total_bytes - free_bytes;
    } else {
      cudaGetLastError();  // a report, not an operation: leave the figure at 0
    }
    description.bytes_used_by_ringviz = allocated_bytes(device.index);
    report.devices.push_back(std::move(description));
  }
  const RankResources& resources = impl_->resources;
  const int ranks = resources.allocated() ? resources.shape().ranks : 0;
  for (int rank = 0; rank < ranks; ++rank) report.device_of_rank.push_back(device_of_rank(rank));
  return report;
}

TransferRoute CudaBackend::route(int src_rank, int dst_rank) const {
  switch (link(src_rank, dst_rank)) {
    case LinkKind::same_device: return TransferRoute::same_device;
    case LinkKind::peer_to_peer: return TransferRoute::peer_to_peer;
    case LinkKind::staged_through_host: break;
  }
  return TransferRoute::through_host;
}

std::uint64_t CudaBackend::allocated_bytes(int device) const {
  return impl_->resources.allocated_bytes(device);
}

std::string CudaBackend::last_submission() const { return impl_->last_submission; }

const void* CudaBackend::device_buffer(int rank) {
  impl_->require_allocated("device_buffer()");
  if (rank < 0 || rank >= impl_->resources.shape().ranks)
    throw CudaError("CUDA backend: rank " + std::to_string(rank) + " is not in the loaded shape");
  impl_->flush();
  return impl_->resources.rank(rank).buffer.data();
}

std::unique_ptr<CudaBackend> make_cuda_backend(CudaBackendOptions options) {
  return std::make_unique<CudaBackend>(std::move(options));
}

}  // namespace ringviz::gpu
