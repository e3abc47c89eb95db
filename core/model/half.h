#pragma once
// IEEE binary16 and bfloat16 storage with round-to-nearest-even conversion from f32.
// Written by hand (not with compiler _Float16 or cuda_fp16) so that the host and the device
// take exactly the same path, bit for bit, including NaN payloads and subnormals.
#include <cstdint>
#include <cstring>

#include "core/model/portable.h"

namespace ringviz {

struct Half {
  std::uint16_t bits;
};
struct BFloat16 {
  std::uint16_t bits;
};

RINGVIZ_HD inline std::uint32_t float_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

RINGVIZ_HD inline float float_from_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Shifts `mantissa` right by `shift` bits, rounding to nearest, ties to even.
RINGVIZ_HD inline std::uint32_t shift_right_round_even(std::uint32_t mantissa, unsigned shift) {
  const std::uint32_t kept = mantissa >> shift;
  const std::uint32_t rest = mantissa & ((1u << shift) - 1u);
  const std::uint32_t halfway = 1u << (shift - 1u);
  return kept + ((rest > halfway || (rest == halfway && (kept & 1u))) ? 1u : 0u);
}

RINGVIZ_HD inline Half half_from_float(float value) {
  const std::uint32_t bits = float_bits(value);
  const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  const std::uint32_t exponent = magnitude >> 23;
  if (exponent == 0xff) {  // inf stays inf; NaN stays a quiet NaN with its top payload bits
    const std::uint32_t payload = magnitude & 0x7fffffu;
    return {static_cast<std::uint16_t>(sign | 0x7c00u | (payload ? 0x200u | (payload >> 13) : 0u))};
  }
  if (exponent >= 143) return {static_cast<std::uint16_t>(sign | 0x7c00u)};  // beyond 65520: inf
  if (exponent >= 113) {  // a normal half; a carry out of the mantissa correctly bumps the exponent
    const std::uint32_t rebased = magnitude - (112u << 23);
    return {static_cast<std::uint16_t>(sign | shift_right_round_even(rebased, 13))};
  }
  if (exponent < 102) return {sign};  // below half the smallest subnormal: rounds to zero
  // A subnormal half counts units of 2^-24; the f32 value is (1.m) * 2^(exponent-150).
  const std::uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
  return {static_cast<std::uint16_t>(sign | shift_right_round_even(mantissa, 126 - exponent))};
}

RINGVIZ_HD inline float half_to_float(Half half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half.bits & 0x8000u) << 16;
  std::uint32_t exponent = (half.bits >> 10) & 0x1fu;
  std::uint32_t mantissa = half.bits & 0x3ffu;
  if (exponent == 0x1f) return float_from_bits(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    if (mantissa == 0) return float_from_bits(sign);
    exponent = 1;  // normalise the subnormal
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    mantissa &= 0x3ffu;
  }
  return float_from_bits(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

RINGVIZ_HD inline BFloat16 bfloat16_from_float(float value) {
  const std::uint32_t bits = float_bits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u)  // NaN: keep sign and top payload, force quiet
    return {static_cast<std::uint16_t>((bits >> 16) | 0x40u)};
  const std::uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return {static_cast<std::uint16_t>((bits + rounding) >> 16)};
}

RINGVIZ_HD inline float bfloat16_to_float(BFloat16 value) {
  return float_from_bits(static_cast<std::uint32_t>(value.bits) << 16);
}

}  // namespace ringviz
