#pragma once
// The element arithmetic of the CUDA kernels: core's reduce_element/divide_element, except
// that a NaN result carries the bits the CPU reference (x86-64 SSE) produces.
//
// Why: the buffers must be bit-identical to the CPU backend after every round, NaNs included.
// For ordinary numbers IEEE 754 fixes every bit on both sides (round to nearest even, no
// flush-to-zero, no fused multiply-add in these kernels). NaN bits are not fixed by IEEE:
// x86 returns the NaN operand with its quiet bit set, and for an invalid operation
// (inf - inf, 0 * inf) the "default NaN" 0xFFC00000 / 0xFFF8000000000000; NVIDIA GPUs return
// a canonical 0x7FFFFFFF instead. So whenever the device result is NaN we rebuild the
// x86 answer from the operands. When both operands are NaN x86 keeps the first source
// operand, and which one that is depends on how the host compiler ordered them; we take the
// incoming one, as max/min do in core.
//
// Compiled as host code too, so a host test checks these rules against the real CPU.
#include <cstdint>
#include <type_traits>

#include "core/engine/element_math.h"
#include "core/model/half.h"
#include "core/model/portable.h"

namespace ringviz::gpu {

RINGVIZ_HD inline bool is_nan_value(float value) { return (float_bits(value) & 0x7fffffffu) > 0x7f800000u; }

RINGVIZ_HD inline bool is_nan_value(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return (bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

RINGVIZ_HD inline float quieted(float nan) { return float_from_bits(float_bits(nan) | 0x00400000u); }

RINGVIZ_HD inline double quieted(double nan) {
  std::uint64_t bits;
  std::memcpy(&bits, &nan, sizeof bits);
  bits |= 0x0008000000000000ull;
  double result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

template <class C>
RINGVIZ_HD inline C x86_default_nan() {
  if constexpr (std::is_same_v<C, float>) {
    return float_from_bits(0xffc00000u);
  } else {
    const std::uint64_t bits = 0xfff8000000000000ull;
    double result;
    std::memcpy(&result, &bits, sizeof result);
    return result;
  }
}

// `result` = a (op) b as the hardware computed it; returns it unchanged unless it is NaN.
template <class C>
RINGVIZ_HD inline C nan_as_on_x86(C result, C a, C b) {
  if (!is_nan_value(result)) return result;
  if (is_nan_value(a)) return quieted(a);
  if (is_nan_value(b)) return quieted(b);
  return x86_default_nan<C>();
}

// new = incoming (+) local, bit-identical to core's reduce_element on x86-64.
template <ReduceOp Op, class T>
RINGVIZ_HD inline T reference_reduce(T incoming, T local) {
  constexpr bool integer = std::is_integral_v<T>;
  if constexpr (integer || Op == ReduceOp::max || Op == ReduceOp::min) {
    // Integers have no NaN; max/min already choose one of their operands bit for bit.
    return reduce_element<Op, T>(incoming, local);
  } else {
    using Math = ComputeOf<T>;
    const auto a = Math::load(incoming);
    const auto b = Math::load(local);
    const auto r = Op == ReduceOp::prod ? multiply_values(a, b) : add_values(a, b);
    return Math::store(nan_as_on_x86(r, a, b));
  }
}

// avg's final division, bit-identical to core's divide_element on x86-64.
template <class T>
RINGVIZ_HD inline T reference_divide(T value, int ranks) {
  if constexpr (std::is_integral_v<T>) {
    return divide_element(value, ranks);
  } else {
    using Math = ComputeOf<T>;
    using C = typename Math::type;
    const C a = Math::load(value);
    const C divisor = static_cast<C>(ranks);
    return Math::store(nan_as_on_x86(static_cast<C>(a / divisor), a, divisor));
  }
}

}  // namespace ringviz::gpu
