#include "gpu/backend/collective_graph.h"

#include <algorithm>

#include <cuda_runtime.h>

#include "gpu/device/cuda_check.h"
#include "gpu/device/cuda_error.h"

namespace ringviz::gpu {

namespace {

// Upper bound on chunks per slot: past this, launch gaps cost more than L2 reuse saves.
constexpr int kMaxChunks = 64;

bool same_transfer(const Transfer& a, const Transfer& b) {
  return a.src == b.src && a.dst == b.dst && a.slot == b.slot && a.src_slot == b.src_slot && a.kind == b.kind &&
         a.completes_slot == b.completes_slot;
}

bool same_rounds(const std::vector<Round>& a, const std::vector<Round>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].transfers.size() != b[i].transfers.size()) return false;
    for (std::size_t t = 0; t < a[i].transfers.size(); ++t)
      if (!same_transfer(a[i].transfers[t], b[i].transfers[t])) return false;
  }
  return true;
}

}  // namespace

int chunks_per_slot(const std::vector<Round>& rounds, const CollectiveShape& shape,
                    std::uint64_t chunk_bytes) {
  if (chunk_bytes == 0) return 1;
  std::int64_t largest = 0;
  for (const Round& round : rounds)
    for (const Transfer& transfer : round.transfers)
      largest = std::max(largest, shape.layout[transfer.slot].count);
  const std::uint64_t bytes = static_cast<std::uint64_t>(largest) * dtype_size(shape.dtype);
  const std::uint64_t chunks = (bytes + chunk_bytes - 1) / chunk_bytes;
  return static_cast<int>(std::clamp<std::uint64_t>(chunks, 1, kMaxChunks));
}

void CollectiveGraph::forget() {
  executable_.reset();
  graph_.reset();
  captured_rounds_.clear();
}

std::string CollectiveGraph::submit(const std::vector<Round>& rounds, const std::vector<RoundPlan>& plans,
                                    int chunks, bool use_graphs) {
  if (use_graphs && !refused_) {
    const bool cached = executable_ && captured_chunks_ == chunks && same_rounds(captured_rounds_, rounds);
    if (!cached) {
      forget();
      if (capture(plans, chunks)) {
        captured_rounds_ = rounds;
        captured_chunks_ = chunks;
      } else {
        refused_ = true;
      }
    }
    if (executable_) {
      CudaDevice& first = resources_.first_device();
      DeviceGuard guard(first.info.index);
      check_cuda(cudaGraphLaunch(executable_.get(), first.control.get()), "launching the collective's graph");
      resources_.synchronize();
      return "one CUDA graph";
    }
  }
  enqueue_all(plans, chunks);
  resources_.synchronize();
  return "one stream per rank";
}

void CollectiveGraph::enqueue_all(const std::vector<RoundPlan>& plans, int chunks) {
  submitter_.begin();
  CudaDevice& first = resources_.first_device();
  {
    DeviceGuard guard(first.info.index);
    check_cuda(cudaEventRecord(resources_.fork(), first.control.get()), "starting a submission");
  }
  for (CudaRank& rank : resources_.ranks()) {
    DeviceGuard guard(resources_.ordinal_of(rank));
    check_cuda(cudaStreamWaitEvent(rank.stream.get(), resources_.fork(), 0), "starting a submission");
  }
  // Chunk-major: chunk k goes through every round before chunk k + 1 starts, so the data a
  // round wrote is read by the next round soon after, while it is still in L2.
  for (int chunk = 0; chunk < chunks; ++chunk)
    for (const RoundPlan& plan : plans) submitter_.enqueue(plan, chunk, chunks, false, {});
  for (CudaRank& rank : resources_.ranks()) {
    DeviceGuard guard(resources_.ordinal_of(rank));
    check_cuda(cudaEventRecord(rank.done.get(), rank.stream.get()), "ending a submission");
  }
  DeviceGuard guard(first.info.index);
  for (CudaRank& rank : resources_.ranks())
    check_cuda(cudaStreamWaitEvent(first.control.get(), rank.done.get(), 0), "ending a submission");
}

bool CollectiveGraph::capture(const std::vector<RoundPlan>& plans, int chunks) {
  CudaDevice& first = resources_.first_device();
  const int ordinal = first.info.index;
  DeviceGuard guard(ordinal);
  if (cudaStreamBeginCapture(first.control.get(), cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  bool enqueued = true;
  try {
    enqueue_all(plans, chunks);
  } catch (const CudaError&) {
    enqueued = false;
  }
  cudaGraph_t captured = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(first.control.get(), &captured);
  CudaGraph graph(ordinal, captured);
  if (!enqueued || ended != cudaSuccess || !graph) {
    graph.reset();
    cudaGetLastError();
    // Ending the origin's capture releases every stream that joined it; if one were still
    // capturing, plain submission on it would be captured into nothing.
    for (CudaRank& rank : resources_.ranks()) {
      cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
      cudaStreamIsCapturing(rank.stream.get(), &status);
      if (status != cudaStreamCaptureStatusNone)
        throw CudaError("CUDA: a failed graph capture left a stream capturing; set "
                        "RINGVIZ_CUDA_GRAPHS=0 to submit without graphs");
    }
    cudaGetLastError();
    return false;
  }
  cudaGraphExec_t executable = nullptr;
  if (cudaGraphInstantiate(&executable, graph.get(), 0) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  graph_ = std::move(graph);
  executable_ = CudaGraphExec(ordinal, executable);
  return true;
}

}  // namespace ringviz::gpu
