#pragma once
// Internal to gpu/: the part of NCCL's C API that ringviz calls, declared here and resolved from
// libnccl.so.2 at run time (dlopen). No nccl.h is needed to build, so everything NCCL-based is
// built wherever the CUDA toolkit is, and a machine without NCCL still runs ringviz: the
// callers report why NCCL is unavailable (docs/architecture.md, "The NCCL transport").
#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

#include "core/model/config.h"
#include "core/model/dtype.h"
#include "core/model/reduce_op.h"

namespace ringviz::gpu::nccl {

// The declarations follow NCCL's stable C ABI (the values below have not changed since NCCL 2).
struct Communicator;
using Comm = Communicator*;

constexpr std::size_t kUniqueIdBytes = 128;
struct UniqueId {
  char internal[kUniqueIdBytes];
};

using Result = int;
constexpr Result kSuccess = 0;

enum class DataType : int { uint8 = 1, int32 = 2, int64 = 4, float16 = 6, float32 = 7, float64 = 8, bfloat16 = 9 };
enum class RedOp : int { sum = 0, prod = 1, max = 2, min = 3, avg = 4 };

// The entry points, each null until resolved.
struct Library {
  Result (*get_version)(int* version) = nullptr;
  const char* (*error_string)(Result result) = nullptr;
  Result (*get_unique_id)(UniqueId* id) = nullptr;
  Result (*comm_init_rank)(Comm* comm, int ranks, UniqueId id, int rank) = nullptr;
  Result (*comm_init_all)(Comm* comms, int devices, const int* device_list) = nullptr;
  Result (*comm_destroy)(Comm comm) = nullptr;
  Result (*group_start)() = nullptr;
  Result (*group_end)() = nullptr;
  Result (*send)(const void* buffer, std::size_t count, DataType type, int peer, Comm comm,
                 cudaStream_t stream) = nullptr;
  Result (*recv)(void* buffer, std::size_t count, DataType type, int peer, Comm comm,
                 cudaStream_t stream) = nullptr;
  Result (*all_reduce)(const void* send, void* receive, std::size_t count, DataType type, RedOp op,
                       Comm comm, cudaStream_t stream) = nullptr;
  Result (*reduce_scatter)(const void* send, void* receive, std::size_t receive_count, DataType type,
                           RedOp op, Comm comm, cudaStream_t stream) = nullptr;
  Result (*all_gather)(const void* send, void* receive, std::size_t send_count, DataType type,
                       Comm comm, cudaStream_t stream) = nullptr;
  // Empty when every entry point was resolved; otherwise why not, naming the library or the
  // missing symbol ("libnccl.so.2 not found (…)", "libnccl.so.2 lacks ncclSend").
  std::string error;
  bool found = false;  // a libnccl was opened, whether or not it had every entry point
};

// libnccl, opened on the first call (thread-safe) and kept open for the life of the process:
// $RINGVIZ_NCCL_LIBRARY alone when it is set, else the libnccl found at configure time, else
// libnccl.so.2 on the loader's search path.
const Library& library();

// "NCCL 2.27.7", or "" when libnccl is unavailable.
std::string version_text();

// Throws CudaError("NCCL: <what>: <NCCL's error string>") unless `result` is success. `what` is
// a literal, so nothing is built when the call worked.
void check(Result result, const char* what);

DataType data_type(DType dtype);
RedOp reduce_op(ReduceOp op);

// One rank's buffers for NCCL's own collective `op` with `count` elements per rank as the
// collective semantics count them (ReduceScatter: count / ranks elements per output chunk, the
// remainder left out, as NCCL has no uneven chunks).
struct CollectiveCounts {
  std::size_t send = 0;     // elements of the send buffer
  std::size_t receive = 0;  // elements of the receive buffer
  std::size_t call = 0;     // the count argument of the NCCL call
};
CollectiveCounts collective_counts(Op op, std::int64_t count, int ranks);

// Enqueues ncclAllReduce, ncclReduceScatter or ncclAllGather for one rank on `stream`.
void post_collective(Op op, DType dtype, ReduceOp reduce, const CollectiveCounts& counts,
                     const void* send, void* receive, Comm comm, cudaStream_t stream);

}  // namespace ringviz::gpu::nccl
