#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "core/model/buffers.h"
#include "core/model/dtype.h"

namespace ringviz {

// Shortest decimal that reads back to the same value: 6, 0.1, 1e-08, nan, inf, -inf.
std::string shortest_decimal(double value);
std::string shortest_decimal(float value);

// A count or size computed in floating point: whole numbers in full (4000000000000, not
// 4e+12), fractions as the shortest decimal.
std::string format_quantity(double value);

// One element as a person should read it: integers exactly; f32, f16 and bf16 as the
// shortest decimal of the float they widen to (0.1f prints 0.1, not 0.10000000149011612);
// f64 as the shortest decimal of the double.
std::string format_element(const ElementValue& value, DType dtype);

// An element of a single rank's bytes (an output buffer), widened like read_element().
ElementValue read_element(const ByteBuffer& bytes, DType dtype, std::int64_t index);
inline std::int64_t element_count(const ByteBuffer& bytes, DType dtype) {
  return static_cast<std::int64_t>(bytes.size() / dtype_size(dtype));
}

// Lists at most this many values in full; longer lists keep their head and tail.
inline constexpr std::int64_t kFullListLimit = 64;

// "[1, 2, 3]"; with more than `full_limit` values "[1, 2, …, 99, 100]" (the caller says how
// many there are). `at(i)` formats value i and is only called for the values shown.
std::string format_value_list(std::int64_t size, const std::function<std::string(std::int64_t)>& at,
                              std::int64_t full_limit = kFullListLimit);

}  // namespace ringviz
