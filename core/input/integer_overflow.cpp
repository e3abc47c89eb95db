#include "core/input/integer_overflow.h"

#include <algorithm>
#include <limits>

namespace ringviz {

namespace {

using Wide = __int128;

std::string wide_text(Wide value) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  std::string digits;
  // Digit by digit from the low end; negative remainders keep the most negative value exact.
  while (value != 0) {
    const int digit = static_cast<int>(value % 10);
    digits += static_cast<char>('0' + (negative ? -digit : digit));
    value /= 10;
  }
  if (negative) digits += '-';
  std::reverse(digits.begin(), digits.end());
  return digits;
}

bool fits(Wide value, DType type) {
  const Wide low = type == DType::i32 ? std::numeric_limits<std::int32_t>::min() : std::numeric_limits<std::int64_t>::min();
  const Wide high = type == DType::i32 ? std::numeric_limits<std::int32_t>::max() : std::numeric_limits<std::int64_t>::max();
  return value >= low && value <= high;
}

// A value reduced by the wrapping rule, stored as the type: two's complement arithmetic is
// exact modulo 2^64, so the low bits of any fold order agree.
std::int64_t stored(std::uint64_t bits, DType type) {
  return type == DType::i32 ? static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)) : static_cast<std::int64_t>(bits);
}

}  // namespace

std::optional<IntegerOverflow> first_integer_overflow(const Config& config, const BufferState& initial) {
  const bool folds = config.reduce == ReduceOp::sum || config.reduce == ReduceOp::prod || config.reduce == ReduceOp::avg;
  if (is_floating(config.dtype) || !folds || !op_reduces(config.op) || config.ranks < 2) return std::nullopt;
  for (std::int64_t i = 0; i < config.count; ++i) {
    const bool product = config.reduce == ReduceOp::prod;
    Wide exact = product ? 1 : 0;
    bool beyond_wide = false;  // a product past 2^127, unless a later factor is zero
    bool zero_factor = false;
    std::uint64_t bits = product ? 1 : 0;
    for (int rank = 0; rank < config.ranks; ++rank) {
      const std::int64_t value = read_element(initial, rank, i).integer;
      if (product) {
        bits *= static_cast<std::uint64_t>(value);
        zero_factor = zero_factor || value == 0;
        if (!beyond_wide && __builtin_mul_overflow(exact, static_cast<Wide>(value), &exact)) beyond_wide = true;
      } else {
        bits += static_cast<std::uint64_t>(value);
        exact += value;  // 256 values of 64 bits fit 128 bits with room to spare
      }
    }
    if (zero_factor) continue;  // the product is 0, whatever it passed through
    if (!beyond_wide && fits(exact, config.dtype)) continue;
    IntegerOverflow overflow;
    overflow.element = i;
    overflow.exact = beyond_wide ? "beyond ±2^127" : wide_text(exact);
    std::int64_t wrapped = stored(bits, config.dtype);
    if (config.reduce == ReduceOp::avg) wrapped /= config.ranks;  // truncates toward zero, as the engine
    overflow.wrapped = std::to_string(wrapped);
    return overflow;
  }
  return std::nullopt;
}

std::string integer_overflow_message(const Config& config, const IntegerOverflow& overflow) {
  const std::string type(dtype_name(config.dtype));
  const std::string what = config.reduce == ReduceOp::prod ? "product" : "sum";
  return type + " " + std::string(reduce_op_name(config.reduce)) + " overflows at element " +
         std::to_string(overflow.element) + ": the exact " + what + " " + overflow.exact + " does not fit " + type +
         ", so it wraps around" + (config.reduce == ReduceOp::avg ? " and the average is " : " to ") +
         overflow.wrapped + " (two's complement, as on a GPU)";
}

}  // namespace ringviz
