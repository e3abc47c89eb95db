#pragma once
// The arithmetic of one element, shared by every backend (host and device) so that results
// are bit-identical: new = incoming (+) local, computed in the type's compute precision and
// rounded back to storage.
#include <cstdint>

#include "core/model/half.h"
#include "core/model/portable.h"
#include "core/model/reduce_op.h"

namespace ringviz {

// How a storage type is computed on: halves widen to f32, everything else is itself.
template <class T>
struct ComputeOf {
  using type = T;
  RINGVIZ_HD static T load(T value) { return value; }
  RINGVIZ_HD static T store(T value) { return value; }
};
template <>
struct ComputeOf<Half> {
  using type = float;
  RINGVIZ_HD static float load(Half value) { return half_to_float(value); }
  RINGVIZ_HD static Half store(float value) { return half_from_float(value); }
};
template <>
struct ComputeOf<BFloat16> {
  using type = float;
  RINGVIZ_HD static float load(BFloat16 value) { return bfloat16_to_float(value); }
  RINGVIZ_HD static BFloat16 store(float value) { return bfloat16_from_float(value); }
};

// Integer sum and product wrap around (two's complement), as on every GPU; computing through
// the unsigned type keeps that well defined in C++.
template <class C>
RINGVIZ_HD inline C add_values(C a, C b) { return a + b; }
template <>
RINGVIZ_HD inline std::int32_t add_values(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
template <>
RINGVIZ_HD inline std::int64_t add_values(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
template <class C>
RINGVIZ_HD inline C multiply_values(C a, C b) { return a * b; }
template <>
RINGVIZ_HD inline std::int32_t multiply_values(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
}
template <>
RINGVIZ_HD inline std::int64_t multiply_values(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

// max/min propagate NaN (the incoming NaN first), so the result never depends on which side
// of the comparison a NaN happens to sit. For integers `a != a` is always false.
template <class C>
RINGVIZ_HD inline C max_values(C incoming, C local) {
  if (incoming != incoming) return incoming;
  if (local != local) return local;
  return incoming > local ? incoming : local;
}
template <class C>
RINGVIZ_HD inline C min_values(C incoming, C local) {
  if (incoming != incoming) return incoming;
  if (local != local) return local;
  return incoming < local ? incoming : local;
}

template <ReduceOp Op, class T>
RINGVIZ_HD inline T reduce_element(T incoming, T local) {
  using Math = ComputeOf<T>;
  const auto a = Math::load(incoming);
  const auto b = Math::load(local);
  if constexpr (Op == ReduceOp::sum || Op == ReduceOp::avg) return Math::store(add_values(a, b));
  if constexpr (Op == ReduceOp::prod) return Math::store(multiply_values(a, b));
  if constexpr (Op == ReduceOp::max) return Math::store(max_values(a, b));
  if constexpr (Op == ReduceOp::min) return Math::store(min_values(a, b));
}

// avg's final division; integers truncate toward zero (C++ and CUDA division both do).
template <class T>
RINGVIZ_HD inline T divide_element(T value, int ranks) {
  using Math = ComputeOf<T>;
  using C = typename Math::type;
  return Math::store(static_cast<C>(Math::load(value) / static_cast<C>(ranks)));
}

}  // namespace ringviz
