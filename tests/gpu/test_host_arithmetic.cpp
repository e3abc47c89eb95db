// The device kernels rebuild x86's NaN bits by rule (gpu/kernels/reference_arithmetic.h). Here, on
// the host, the rules are checked against what the CPU reference really computes, for every
// operand class: if x86 ever disagreed with a rule, the CUDA backend would too.
#include <doctest/doctest.h>

#include <cstring>
#include <ios>
#include <type_traits>
#include <vector>

#include "core/engine/element_math.h"
#include "gpu/kernels/reference_arithmetic.h"

namespace ringviz {
namespace {

// Hides a value from the optimiser, so that the compiler cannot fold the reference at compile
// time with its own NaN conventions: we want what the CPU computes at run time.
template <class T>
T opaque(T value) {
  asm volatile("" : "+m"(value));
  return value;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
std::uint64_t bits_of(T value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

std::vector<float> float_cases() {
  const std::uint32_t patterns[] = {
      0x00000000u, 0x80000000u,  // +0, -0
      0x3f800000u, 0xbf800000u,  // 1, -1
      0x40490fdbu, 0x7f7fffffu,  // pi, the largest float
      0x00000001u, 0x80400000u,  // subnormals
      0x7f800000u, 0xff800000u,  // +inf, -inf
      0x7fc00000u, 0xffc00000u,  // quiet NaNs
      0x7fc12345u, 0xffe00001u,  // quiet NaNs with payloads
      0x7f800001u, 0xff812345u,  // signalling NaNs
      0x477fe000u, 0x38800000u,  // 65504 (largest half), 2^-14 (smallest normal half)
  };
  std::vector<float> values;
  for (std::uint32_t bits : patterns) values.push_back(float_from_bits(bits));
  return values;
}

std::vector<double> double_cases() {
  std::vector<double> values;
  for (float f : float_cases()) values.push_back(static_cast<double>(f));
  const std::uint64_t patterns[] = {0x7ff0000000000001ull, 0xfff8000000000123ull,
                                    0x0000000000000001ull, 0x7fefffffffffffffull};
  for (std::uint64_t bits : patterns) {
    double value;
    std::memcpy(&value, &bits, sizeof value);
    values.push_back(value);
  }
  return values;
}

template <class T>
std::vector<T> cases_of() {
  if constexpr (std::is_same_v<T, float>) {
    return float_cases();
  } else if constexpr (std::is_same_v<T, double>) {
    return double_cases();
  } else {
    std::vector<T> values;
    for (float f : float_cases()) {
      if constexpr (std::is_same_v<T, Half>) values.push_back(half_from_float(f));
      else values.push_back(bfloat16_from_float(f));
    }
    values.push_back(T{0x7c01});  // a signalling NaN (f16) / a large finite value (bf16)
    values.push_back(T{0xfd00});
    return values;
  }
}

template <class T>
bool is_nan_storage(T value) {
  return gpu::is_nan_value(ComputeOf<T>::load(value));
}

template <ReduceOp Op, class T>
void check_reduce_rules() {
  const std::vector<T> values = cases_of<T>();
  for (T a_value : values)
    for (T b_value : values) {
      const T a = opaque(a_value);
      const T b = opaque(b_value);
      if (is_nan_storage<T>(a) && is_nan_storage<T>(b)) continue;  // x86's choice depends on operand order
      const T expected = reduce_element<Op, T>(a, b);
      const T actual = gpu::reference_reduce<Op, T>(a, b);
      INFO("op " << static_cast<int>(Op) << ", incoming 0x" << std::hex << bits_of<T>(a)
                 << ", local 0x" << bits_of<T>(b) << ": CPU 0x" << bits_of(expected)
                 << ", rule 0x" << bits_of(actual));
      CHECK(same_bits(expected, actual));
    }
}

template <class T>
void check_divide_rules() {
  for (T value_storage : cases_of<T>())
    for (int ranks : {1, 2, 3, 7, 8, 256}) {
      const T value = opaque(value_storage);
      const T expected = divide_element<T>(value, ranks);
      const T actual = gpu::reference_divide<T>(value, ranks);
      INFO("0x" << std::hex << bits_of<T>(value) << " / " << std::dec << ranks);
      CHECK(same_bits(expected, actual));
    }
}

template <class T>
void check_all_rules() {
  check_reduce_rules<ReduceOp::sum, T>();
  check_reduce_rules<ReduceOp::prod, T>();
  check_reduce_rules<ReduceOp::max, T>();
  check_reduce_rules<ReduceOp::min, T>();
  check_reduce_rules<ReduceOp::avg, T>();
  check_divide_rules<T>();
}

TEST_SUITE("host") {
  TEST_CASE("the kernels' NaN rules give the bits the CPU reference computes, for f32 and f64") {
    SUBCASE("f32") { check_all_rules<float>(); }
    SUBCASE("f64") { check_all_rules<double>(); }
  }

  TEST_CASE("the kernels' NaN rules give the bits the CPU reference computes, for f16 and bf16") {
    SUBCASE("f16") { check_all_rules<Half>(); }
    SUBCASE("bf16") { check_all_rules<BFloat16>(); }
  }

  TEST_CASE("integer reductions and avg's truncation are core's own arithmetic") {
    for (std::int32_t a : {-2147483647 - 1, -7, 0, 7, 2147483647})
      for (std::int32_t b : {-1, 3, 2147483647}) {
        CHECK(gpu::reference_reduce<ReduceOp::sum, std::int32_t>(a, b) == reduce_element<ReduceOp::sum, std::int32_t>(a, b));
        CHECK(gpu::reference_reduce<ReduceOp::prod, std::int32_t>(a, b) == reduce_element<ReduceOp::prod, std::int32_t>(a, b));
      }
    CHECK(gpu::reference_divide<std::int64_t>(-7, 2) == -3);
    CHECK(gpu::reference_divide<std::int32_t>(7, 2) == 3);
  }
}

}  // namespace
}  // namespace ringviz
