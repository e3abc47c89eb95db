#include "core/trace/trace_values.h"

#include "core/model/checked_value.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ringviz {

namespace {

// std::to_chars without a format (shortest_text) is the shortest round-trip form, and it
// spells neither a trailing ".0" nor a locale's decimal comma.
template <class Float>
std::string shortest(Float value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return shortest_text(value);
}

}  // namespace

std::string shortest_decimal(double value) { return shortest(value); }
std::string shortest_decimal(float value) { return shortest(value); }

std::string format_quantity(double value) {
  // Below 2^53 every whole double is an exact int64.
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 0x1.0p53)
    return std::to_string(static_cast<std::int64_t>(value));
  return shortest_decimal(value);
}

std::string format_element(const ElementValue& value, DType dtype) {
  if (value.is_integer) return std::to_string(value.integer);
  if (dtype == DType::f64) return shortest_decimal(value.real);
  // f16 and bf16 values are exact floats, so the float's shortest form is also exact.
  return shortest_decimal(static_cast<float>(value.real));
}

ElementValue read_element(const ByteBuffer& bytes, DType dtype, std::int64_t index) {
  const std::size_t size = dtype_size(dtype);
  // One reusable scratch element, so that printing a long output allocates nothing per value.
  thread_local BufferState one;
  if (one.ranks.empty() || one.dtype != dtype) one = BufferState::zeros(dtype, 1, 1);
  const auto* begin = bytes.data() + static_cast<std::size_t>(index) * size;
  std::copy(begin, begin + size, one.ranks[0].begin());
  return read_element(one, 0, 0);
}

std::string format_value_list(std::int64_t size, const std::function<std::string(std::int64_t)>& at,
                              std::int64_t full_limit) {
  // Enough of the head to see the pattern, and the last values to see where it ends.
  constexpr std::int64_t kHead = 8;
  constexpr std::int64_t kTail = 4;
  const bool elide = size > full_limit && size > kHead + kTail;
  std::string text = "[";
  for (std::int64_t i = 0; i < size; ++i) {
    if (elide && i == kHead) {
      text += ", …";
      i = size - kTail - 1;
      continue;
    }
    if (i > 0) text += ", ";
    text += at(i);
  }
  return text + "]";
}

}  // namespace ringviz
