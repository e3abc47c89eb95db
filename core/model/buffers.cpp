#include "core/model/buffers.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "core/model/half.h"
#include "core/model/storage_type.h"

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
  return with_storage_type(state.dtype, [&](auto* type) -> ElementValue {
    using T = storage_of<decltype(type)>;
    const T stored = state.data<T>(rank)[index];
    if constexpr (std::is_integral_v<T>) {
      const std::int64_t integer = stored;
      return {true, static_cast<double>(integer), integer};
    } else if constexpr (std::is_same_v<T, Half>) {
      return {false, half_to_float(stored), 0};
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      return {false, bfloat16_to_float(stored), 0};
    } else {
      return {false, static_cast<double>(stored), 0};
    }
  });
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
  with_storage_type(state.dtype, [&](auto* type) {
    using T = storage_of<decltype(type)>;
    T& stored = state.data<T>(rank)[index];
    if constexpr (std::is_integral_v<T>) {
      stored = value.is_integer ? static_cast<T>(value.integer) : integer_from_real<T>(value.real);
    } else if constexpr (std::is_floating_point_v<T>) {
      stored = value.is_integer ? static_cast<T>(value.integer) : static_cast<T>(value.real);
    } else {
      // f16 and bf16 round from f32, as the engine computes them.
      const float real =
          value.is_integer ? static_cast<float>(value.integer) : static_cast<float>(value.real);
      if constexpr (std::is_same_v<T, Half>) stored = half_from_float(real);
      else stored = bfloat16_from_float(real);
    }
  });
}

}  // namespace ringviz
