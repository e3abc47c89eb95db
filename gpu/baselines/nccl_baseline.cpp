// NCCL's ring collectives as the benchmark's multi-GPU baseline. libnccl is opened at run time
// (dlopen) rather than linked: ringviz must start on machines whose toolkit has no NCCL, and
// there the baseline is simply reported as unavailable. nccl.h, found at configure time,
// supplies the types and signatures.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/device/cuda_error.h"
#include "gpu/baselines/device_baselines.h"

#if RINGVIZ_HAVE_NCCL
#include <dlfcn.h>

#include <cuda_runtime.h>
#include <nccl.h>

#include "gpu/device/cuda_check.h"
#include "gpu/device/cuda_devices.h"
#include "gpu/backend/cuda_owners.h"
#endif

namespace ringviz::gpu {

#if !RINGVIZ_HAVE_NCCL

std::string nccl_unavailable_reason(int) {
  return "this build found no NCCL (nccl.h and libnccl) when it was configured";
}
std::string nccl_version_text() { return ""; }
NcclTiming time_nccl_collective(Op, DType, ReduceOp, std::int64_t, int, int, int) {
  throw CudaError(nccl_unavailable_reason(0));
}

#else

namespace {

// The few NCCL entry points the baseline calls, resolved from libnccl.
struct NcclApi {
  decltype(&ncclGetVersion) get_version = nullptr;
  decltype(&ncclCommInitAll) comm_init_all = nullptr;
  decltype(&ncclCommDestroy) comm_destroy = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  decltype(&ncclAllReduce) all_reduce = nullptr;
  decltype(&ncclReduceScatter) reduce_scatter = nullptr;
  decltype(&ncclAllGather) all_gather = nullptr;
  std::string error;  // why loading failed
};

const NcclApi& nccl_api() {
  static std::once_flag once;
  static NcclApi api;
  std::call_once(once, [] {
    void* library = nullptr;
    for (const char* name : {RINGVIZ_NCCL_LIBRARY, "libnccl.so.2", "libnccl.so"})
      if ((library = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!library) {
      const char* why = dlerror();
      api.error = std::string("libnccl could not be loaded (") + (why ? why : "not found") + ")";
      return;
    }
    const auto resolve = [&](auto& function, const char* symbol) {
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, symbol));
      if (!function && api.error.empty()) api.error = std::string("libnccl lacks ") + symbol;
    };
    resolve(api.get_version, "ncclGetVersion");
    resolve(api.comm_init_all, "ncclCommInitAll");
    resolve(api.comm_destroy, "ncclCommDestroy");
    resolve(api.error_string, "ncclGetErrorString");
    resolve(api.group_start, "ncclGroupStart");
    resolve(api.group_end, "ncclGroupEnd");
    resolve(api.all_reduce, "ncclAllReduce");
    resolve(api.reduce_scatter, "ncclReduceScatter");
    resolve(api.all_gather, "ncclAllGather");
  });
  return api;
}

// `what` is a literal: nothing is built unless the call failed.
void check_nccl(ncclResult_t result, const char* what) {
  if (result == ncclSuccess) return;
  throw CudaError(std::string("NCCL: ") + what + ": " + nccl_api().error_string(result));
}

ncclDataType_t nccl_type(DType dtype) {
  switch (dtype) {
    case DType::f32: return ncclFloat32;
    case DType::f64: return ncclFloat64;
    case DType::f16: return ncclFloat16;
    case DType::bf16: return ncclBfloat16;
    case DType::i32: return ncclInt32;
    case DType::i64: return ncclInt64;
  }
  return ncclFloat32;
}

ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return ncclSum;
    case ReduceOp::prod: return ncclProd;
    case ReduceOp::max: return ncclMax;
    case ReduceOp::min: return ncclMin;
    case ReduceOp::avg: return ncclAvg;
  }
  return ncclSum;
}

}  // namespace

std::string nccl_unavailable_reason(int gpus) {
  const NcclApi& api = nccl_api();
  if (!api.error.empty()) return api.error;
  if (gpus < 2) return "NCCL's ring needs two or more GPUs (" + std::to_string(gpus) + " visible)";
  return "";
}

std::string nccl_version_text() {
  const NcclApi& api = nccl_api();
  if (!api.error.empty()) return "";
  int version = 0;
  if (api.get_version(&version) != ncclSuccess) return "NCCL";
  // NCCL >= 2.9 encodes major * 10000 + minor * 100 + patch.
  return "NCCL " + std::to_string(version / 10000) + "." + std::to_string((version / 100) % 100) +
         "." + std::to_string(version % 100);
}

NcclTiming time_nccl_collective(Op op, DType dtype, ReduceOp reduce, std::int64_t count, int gpus,
                                int warmup, int iterations) {
  if (const std::string why = nccl_unavailable_reason(gpus); !why.empty()) throw CudaError(why);
  const NcclApi& api = nccl_api();
  // The baseline is NCCL's ring, the algorithm ringviz executes; NCCL reads this when it
  // initialises, which is the ncclCommInitAll below.
  setenv("NCCL_ALGO", "Ring", 1);

  const std::size_t element = dtype_size(dtype);
  const std::int64_t chunk = op == Op::reducescatter ? count / gpus : count;
  const std::size_t send_elements =
      static_cast<std::size_t>(op == Op::reducescatter ? chunk * gpus : count);
  const std::size_t receive_elements =
      static_cast<std::size_t>(op == Op::allgather ? count * gpus : op == Op::reducescatter ? chunk : count);

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
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(gpus), nullptr);
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
      send_buffers[at] = DeviceMemory::allocate_or_throw(i, send_elements * element, what);
      receive_buffers[at] = DeviceMemory::allocate_or_throw(i, receive_elements * element, what);
      send[at] = send_buffers[at].get();
      receive[at] = receive_buffers[at].get();
      // Zeros: finite for every type and reduction, so timing never meets NaN or overflow.
      check_cuda(cudaMemset(send[at], 0, send_elements * element), what);
      stream_owners[at] = CudaStream::create_non_blocking(i, what);
      streams[at] = stream_owners[at].get();
    }
    check_nccl(api.comm_init_all(comms.data(), gpus, devices.data()), "initialising communicators");

    const auto run_once = [&] {
      check_nccl(api.group_start(), "starting a group");
      for (int i = 0; i < gpus; ++i) {
        const auto at = static_cast<std::size_t>(i);
        switch (op) {
          case Op::allreduce:
            check_nccl(api.all_reduce(send[at], receive[at], static_cast<size_t>(count), nccl_type(dtype),
                                      nccl_op(reduce), comms[at], streams[at]),
                       "ncclAllReduce");
            break;
          case Op::reducescatter:
            check_nccl(api.reduce_scatter(send[at], receive[at], static_cast<size_t>(chunk),
                                          nccl_type(dtype), nccl_op(reduce), comms[at], streams[at]),
                       "ncclReduceScatter");
            break;
          case Op::allgather:
            check_nccl(api.all_gather(send[at], receive[at], static_cast<size_t>(count), nccl_type(dtype),
                                      comms[at], streams[at]),
                       "ncclAllGather");
            break;
        }
      }
      check_nccl(api.group_end(), "ending a group");
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

#endif

}  // namespace ringviz::gpu
