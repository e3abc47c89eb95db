#include "gpu/nccl/nccl_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpu/device/cuda_error.h"

namespace ringviz::gpu::nccl {

namespace {

void load(Library& api) {
  void* handle = nullptr;
  std::string why;
  // $RINGVIZ_NCCL_LIBRARY alone when set; otherwise a libnccl found when ringviz was
  // configured, then the loader's search path.
  const char* chosen = std::getenv("RINGVIZ_NCCL_LIBRARY");
  const bool only_chosen = chosen && *chosen;
  for (const char* name : {only_chosen ? chosen : RINGVIZ_NCCL_LIBRARY, "libnccl.so.2", "libnccl.so"}) {
    if (*name == '\0') continue;
    if ((handle = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (why.empty())
      if (const char* error = dlerror()) why = error;
    if (only_chosen) break;
  }
  if (!handle) {
    api.error = "libnccl.so.2 not found (" + (why.empty() ? std::string("no such library") : why) + ")";
    return;
  }
  api.found = true;
  const auto resolve = [&](auto& function, const char* symbol) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(handle, symbol));
    if (!function && api.error.empty()) api.error = std::string("libnccl.so.2 lacks ") + symbol;
  };
  resolve(api.get_version, "ncclGetVersion");
  resolve(api.error_string, "ncclGetErrorString");
  resolve(api.get_unique_id, "ncclGetUniqueId");
  resolve(api.comm_init_rank, "ncclCommInitRank");
  resolve(api.comm_init_all, "ncclCommInitAll");
  resolve(api.comm_destroy, "ncclCommDestroy");
  resolve(api.group_start, "ncclGroupStart");
  resolve(api.group_end, "ncclGroupEnd");
  resolve(api.send, "ncclSend");
  resolve(api.recv, "ncclRecv");
  resolve(api.all_reduce, "ncclAllReduce");
  resolve(api.reduce_scatter, "ncclReduceScatter");
  resolve(api.all_gather, "ncclAllGather");
}

}  // namespace

const Library& library() {
  static std::once_flag once;
  static Library api;
  std::call_once(once, [] { load(api); });
  return api;
}

std::string version_text() {
  const Library& api = library();
  if (!api.error.empty()) return "";
  int version = 0;
  if (api.get_version(&version) != kSuccess) return "NCCL";
  // NCCL >= 2.9 encodes major * 10000 + minor * 100 + patch.
  return "NCCL " + std::to_string(version / 10000) + "." + std::to_string((version / 100) % 100) +
         "." + std::to_string(version % 100);
}

void check(Result result, const char* what) {
  if (result == kSuccess) return;
  throw CudaError(std::string("NCCL: ") + what + ": " + library().error_string(result));
}

DataType data_type(DType dtype) {
  switch (dtype) {
    case DType::f32: return DataType::float32;
    case DType::f64: return DataType::float64;
    case DType::f16: return DataType::float16;
    case DType::bf16: return DataType::bfloat16;
    case DType::i32: return DataType::int32;
    case DType::i64: return DataType::int64;
  }
  return DataType::float32;
}

RedOp reduce_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return RedOp::sum;
    case ReduceOp::prod: return RedOp::prod;
    case ReduceOp::max: return RedOp::max;
    case ReduceOp::min: return RedOp::min;
    case ReduceOp::avg: return RedOp::avg;
  }
  return RedOp::sum;
}

CollectiveCounts collective_counts(Op op, std::int64_t count, int ranks) {
  const auto elements = static_cast<std::size_t>(count);
  const auto chunk = static_cast<std::size_t>(count / ranks);
  switch (op) {
    case Op::allreduce: return {elements, elements, elements};
    case Op::reducescatter: return {chunk * static_cast<std::size_t>(ranks), chunk, chunk};
    case Op::allgather: return {elements, elements * static_cast<std::size_t>(ranks), elements};
    case Op::broadcast:
    case Op::alltoall:
    case Op::sendrecv: break;  // no baseline posts these (post_collective refuses them)
  }
  return {};
}

void post_collective(Op op, DType dtype, ReduceOp reduce, const CollectiveCounts& counts,
                     const void* send, void* receive, Comm comm, cudaStream_t stream) {
  const Library& api = library();
  switch (op) {
    case Op::allreduce:
      check(api.all_reduce(send, receive, counts.call, data_type(dtype), reduce_op(reduce), comm, stream),
            "ncclAllReduce");
      return;
    case Op::reducescatter:
      check(api.reduce_scatter(send, receive, counts.call, data_type(dtype), reduce_op(reduce), comm,
                               stream),
            "ncclReduceScatter");
      return;
    case Op::allgather:
      check(api.all_gather(send, receive, counts.call, data_type(dtype), comm, stream), "ncclAllGather");
      return;
    case Op::broadcast:
    case Op::alltoall:
    case Op::sendrecv: break;
  }
  throw std::logic_error(std::string("post_collective: no NCCL collective for ") + std::string(op_name(op)));
}

}  // namespace ringviz::gpu::nccl
