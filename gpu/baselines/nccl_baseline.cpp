// NCCL's ring collectives as the benchmark's multi-GPU baseline, through the NCCL loader
// (gpu/nccl/nccl_library.h): where libnccl is missing the baseline is reported as unavailable.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "gpu/backend/cuda_owners.h"
#include "gpu/baselines/device_baselines.h"
#include "gpu/device/cuda_check.h"
#include "gpu/device/cuda_error.h"
#include "gpu/nccl/nccl_library.h"

namespace ringviz::gpu {

std::string nccl_unavailable_reason(int gpus) {
  const nccl::Library& api = nccl::library();
  if (!api.error.empty()) return api.error;
  if (gpus < 2) return "NCCL's ring needs two or more GPUs (" + std::to_string(gpus) + " visible)";
  return "";
}

std::string nccl_version_text() { return nccl::version_text(); }

NcclTiming time_nccl_collective(Op op, DType dtype, ReduceOp reduce, std::int64_t count, int gpus,
                                int warmup, int iterations) {
  if (const std::string why = nccl_unavailable_reason(gpus); !why.empty()) throw CudaError(why);
  const nccl::Library& api = nccl::library();
  // The baseline is NCCL's ring, the algorithm ringviz executes; NCCL reads this when it
  // initialises, which is the ncclCommInitAll below.
  setenv("NCCL_ALGO", "Ring", 1);

  const std::size_t element = dtype_size(dtype);
  const nccl::CollectiveCounts counts = nccl::collective_counts(op, count, gpus);

  std::vector<int> devices(static_cast<std::size_t>(gpus));
  for (int i = 0; i < gpus; ++i) devices[static_cast<std::size_t>(i)] = i;
  // The owners release buffers and streams when they go out of scope, after `release` has
  // waited for the streams and destroyed the communicators that use them.
  std::vector<DeviceMemory> send_buffers(static_cast<std::size_t>(gpus));
  std::vector<DeviceMemory> receive_buffers(static_cast<std::size_t>(gpus));
  std::vector<CudaStream> stream_owners(static_cast<std::size_t>(gpus));
  std::vector<void*> send(static_cast<std::size_t>(gpus), nullptr);
  std::vector<void*> receive(static_cast<std::size_t>(gpus), nullptr);
  std::vector<cudaStream_t> streams(static_cast<std::size_t>(gpus), nullptr);
  std::vector<nccl::Comm> comms(static_cast<std::size_t>(gpus), nullptr);
  const auto release = [&] {
    for (int i = 0; i < gpus; ++i) {
      const auto at = static_cast<std::size_t>(i);
      cudaSetDevice(i);
      if (streams[at]) cudaStreamSynchronize(streams[at]);
      if (comms[at]) api.comm_destroy(comms[at]);
    }
    cudaGetLastError();
  };

  NcclTiming timing;
  timing.ranks = gpus;
  try {
    for (int i = 0; i < gpus; ++i) {
      const auto at = static_cast<std::size_t>(i);
      DeviceGuard guard(i);
      const auto what = [&] { return "NCCL baseline buffers on GPU " + std::to_string(i); };
      send_buffers[at] = DeviceMemory::allocate_or_throw(i, counts.send * element, what);
      receive_buffers[at] = DeviceMemory::allocate_or_throw(i, counts.receive * element, what);
      send[at] = send_buffers[at].get();
      receive[at] = receive_buffers[at].get();
      // Zeros: finite for every type and reduction, so timing never meets NaN or overflow.
      check_cuda(cudaMemset(send[at], 0, counts.send * element), what);
      stream_owners[at] = CudaStream::create_non_blocking(i, what);
      streams[at] = stream_owners[at].get();
    }
    nccl::check(api.comm_init_all(comms.data(), gpus, devices.data()), "initialising communicators");

    const auto run_once = [&] {
      nccl::check(api.group_start(), "starting a group");
      for (int i = 0; i < gpus; ++i) {
        const auto at = static_cast<std::size_t>(i);
        nccl::post_collective(op, dtype, reduce, counts, send[at], receive[at], comms[at], streams[at]);
      }
      nccl::check(api.group_end(), "ending a group");
    };
    const auto wait_all = [&] {
      for (int i = 0; i < gpus; ++i) {
        DeviceGuard guard(i);
        check_cuda(cudaStreamSynchronize(streams[static_cast<std::size_t>(i)]), "waiting for NCCL");
      }
    };
    for (int i = 0; i < std::max(warmup, 1); ++i) run_once();
    wait_all();
    // Host wall clock around back-to-back collectives, as nccl-tests measures.
    const int runs = std::max(iterations, 1);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i) run_once();
    wait_all();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    timing.iterations = runs;
    timing.microseconds = seconds * 1e6 / runs;
  } catch (...) {
    release();
    throw;
  }
  release();
  return timing;
}

}  // namespace ringviz::gpu
