#pragma once
// Internal to gpu/: the device side of one transfer, launched on the current device.
#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/model/dtype.h"
#include "core/model/reduce_op.h"

namespace ringviz::gpu {

// local[i] = incoming[i] (+) local[i] for i < count, then, when divide_by > 0 (avg, the slot
// just became complete), local[i] /= divide_by. `incoming` may live on another GPU that the
// current one has peer access to. Returns the launch status.
cudaError_t launch_reduce_slot(DType dtype, ReduceOp op, const void* incoming, void* local,
                               std::int64_t count, int divide_by, cudaStream_t stream,
                               int multiprocessors);

// values[i] /= ranks (avg's final step when the completing transfer was not a reduce).
cudaError_t launch_divide_slot(DType dtype, void* values, std::int64_t count, int ranks,
                               cudaStream_t stream, int multiprocessors);

}  // namespace ringviz::gpu
