#include "core/engine/slot_kernels.h"

#include <cstring>

#include "core/engine/element_math.h"
#include "core/model/storage_type.h"

namespace ringviz {

namespace {

template <ReduceOp Op, class T>
void reduce_loop(const T* __restrict incoming, T* __restrict local, std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i) local[i] = reduce_element<Op, T>(incoming[i], local[i]);
}

template <class T>
void reduce_typed(ReduceOp op, const std::byte* incoming, std::byte* local, std::int64_t count) {
  const T* in = reinterpret_cast<const T*>(incoming);
  T* out = reinterpret_cast<T*>(local);
  switch (op) {
    case ReduceOp::sum: return reduce_loop<ReduceOp::sum>(in, out, count);
    case ReduceOp::prod: return reduce_loop<ReduceOp::prod>(in, out, count);
    case ReduceOp::max: return reduce_loop<ReduceOp::max>(in, out, count);
    case ReduceOp::min: return reduce_loop<ReduceOp::min>(in, out, count);
    case ReduceOp::avg: return reduce_loop<ReduceOp::avg>(in, out, count);
  }
}

template <class T>
void divide_typed(std::byte* values, std::int64_t count, int ranks) {
  T* data = reinterpret_cast<T*>(values);
  for (std::int64_t i = 0; i < count; ++i) data[i] = divide_element(data[i], ranks);
}

}  // namespace

void reduce_elements(DType dtype, ReduceOp op, const std::byte* incoming, std::byte* local,
                     std::int64_t count) {
  with_storage_type(dtype, [&](auto* type) {
    reduce_typed<storage_of<decltype(type)>>(op, incoming, local, count);
  });
}

void copy_elements(DType dtype, const std::byte* incoming, std::byte* local, std::int64_t count) {
  std::memcpy(local, incoming, static_cast<std::size_t>(count) * dtype_size(dtype));
}

void divide_elements(DType dtype, std::byte* values, std::int64_t count, int ranks) {
  with_storage_type(dtype, [&](auto* type) { divide_typed<storage_of<decltype(type)>>(values, count, ranks); });
}

}  // namespace ringviz
