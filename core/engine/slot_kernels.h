#pragma once
#include <cstddef>
#include <cstdint>

#include "core/model/dtype.h"
#include "core/model/reduce_op.h"

namespace ringviz {

// The host loops over a run of elements, dispatched once per run on type and reduction so
// the inner loop is a plain (vectorisable) loop. `incoming` and `local` must not overlap.
void reduce_elements(DType dtype, ReduceOp op, const std::byte* incoming, std::byte* local,
                     std::int64_t count);
void copy_elements(DType dtype, const std::byte* incoming, std::byte* local, std::int64_t count);
// avg's final step: divide every element by `ranks`.
void divide_elements(DType dtype, std::byte* values, std::int64_t count, int ranks);

}  // namespace ringviz
