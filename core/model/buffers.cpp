#include "core/model/buffers.h"

#include <cmath>
#include <limits>

#include "core/engine/half.h"

namespace ringviz {

BufferState BufferState::zeros(DType dtype, int ranks, std::int64_t elements_per_rank) {
  BufferState state;
  state.dtype = dtype;
  state.elements_per_rank = elements_per_rank;
  state.ranks.assign(static_cast<std::size_t>(ranks),
                     ByteBuffer(static_cast<std::size_t>(elements_per_rank) * dtype_size(dtype)));
  return state;
}

ElementValue read_element(const BufferState& state, int rank, std::int64_t index) {
  switch (state.dtype) {
    case DType::f32: return {false, state.data<float>(rank)[index], 0};
    case DType::f64: return {false, state.data<double>(rank)[index], 0};
    case DType::f16: return {false, half_to_float(state.data<Half>(rank)[index]), 0};
    case DType::bf16: return {false, bfloat16_to_float(state.data<BFloat16>(rank)[index]), 0};
    case DType::i32: {
      const std::int64_t v = state.data<std::int32_t>(rank)[index];
      return {true, static_cast<double>(v), v};
    }
    case DType::i64: {
      const std::int64_t v = state.data<std::int64_t>(rank)[index];
      return {true, static_cast<double>(v), v};
    }
  }
  return {};
}

namespace {

// Saturating double -> integer conversion: out-of-range or NaN inputs must not be UB.
template <class I>
I integer_from_real(double real) {
  if (std::isnan(real)) return 0;
  const double low = static_cast<double>(std::numeric_limits<I>::min());
  const double high = static_cast<double>(std::numeric_limits<I>::max());
  if (real <= low) return std::numeric_limits<I>::min();
  if (real >= high) return std::numeric_limits<I>::max();
  return static_cast<I>(real);
}

}  // namespace

void write_element(BufferState& state, int rank, std::int64_t index, ElementValue value) {
  switch (state.dtype) {
    case DType::f32:
      state.data<float>(rank)[index] =
          value.is_integer ? static_cast<float>(value.integer) : static_cast<float>(value.real);
      return;
    case DType::f64:
      state.data<double>(rank)[index] =
          value.is_integer ? static_cast<double>(value.integer) : value.real;
      return;
    case DType::f16:
      state.data<Half>(rank)[index] = half_from_float(
          value.is_integer ? static_cast<float>(value.integer) : static_cast<float>(value.real));
      return;
    case DType::bf16:
      state.data<BFloat16>(rank)[index] = bfloat16_from_float(
          value.is_integer ? static_cast<float>(value.integer) : static_cast<float>(value.real));
      return;
    case DType::i32:
      state.data<std::int32_t>(rank)[index] =
          value.is_integer ? static_cast<std::int32_t>(value.integer)
                           : integer_from_real<std::int32_t>(value.real);
      return;
    case DType::i64:
      state.data<std::int64_t>(rank)[index] =
          value.is_integer ? value.integer : integer_from_real<std::int64_t>(value.real);
      return;
  }
}

}  // namespace ringviz
