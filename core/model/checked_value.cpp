#include "core/model/checked_value.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ringviz {

namespace {

// Magnitudes from which a double no longer rounds to a finite value of the type:
// the largest finite value plus half a step (ties round to even, which is the infinity).
constexpr double kF32Overflow = 0x1.ffffffp127;  // 2^128 - 2^103
constexpr double kF16Overflow = 65520.0;         // 2^16 - 2^4; largest f16 65504
constexpr double kBF16Overflow = 0x1.ffp127;     // 2^128 - 2^119

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The parts of a JSON number: sign, the significant digits (integer and fraction, no point)
// and the power of ten they are scaled by. Nothing when the text is not JSON's grammar.
struct DecimalParts {
  bool negative = false;
  std::string_view integer_digits;
  std::string_view fraction_digits;
  long long exponent = 0;  // saturated far beyond any double: 1e-99999999999 is just tiny
};

std::optional<DecimalParts> split_decimal(std::string_view text) {
  DecimalParts parts;
  std::size_t at = 0;
  if (at < text.size() && text[at] == '-') {
    parts.negative = true;
    ++at;
  }
  const std::size_t integer_start = at;
  while (at < text.size() && is_digit(text[at])) ++at;
  parts.integer_digits = text.substr(integer_start, at - integer_start);
  // JSON: at least one digit, and no leading zero before another digit ("01").
  if (parts.integer_digits.empty() || (parts.integer_digits.size() > 1 && parts.integer_digits[0] == '0'))
    return std::nullopt;
  if (at < text.size() && text[at] == '.') {
    const std::size_t fraction_start = ++at;
    while (at < text.size() && is_digit(text[at])) ++at;
    parts.fraction_digits = text.substr(fraction_start, at - fraction_start);
    if (parts.fraction_digits.empty()) return std::nullopt;  // "5." is no JSON number
  }
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    bool negative_exponent = false;
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) negative_exponent = text[at++] == '-';
    const std::size_t exponent_start = at;
    for (; at < text.size() && is_digit(text[at]); ++at)
      parts.exponent = std::min(parts.exponent * 10 + (text[at] - '0'), 1'000'000'000'000LL);
    if (at == exponent_start) return std::nullopt;
    if (negative_exponent) parts.exponent = -parts.exponent;
  }
  if (at != text.size()) return std::nullopt;
  return parts;
}

// When the decimal is whole and lies within int64, its exact value in `number`.
void read_exactly(const DecimalParts& parts, ElementValue& number) {
  // digits × 10^scale, with the digits' trailing zeros moved into the scale.
  std::string digits(parts.integer_digits);
  digits += parts.fraction_digits;
  long long scale = parts.exponent - static_cast<long long>(parts.fraction_digits.size());
  const std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {  // a zero, however written
    number.is_integer = true;
    number.integer = 0;
    return;
  }
  const std::size_t last = digits.find_last_not_of('0');
  scale += static_cast<long long>(digits.size() - 1 - last);
  digits = digits.substr(first, last - first + 1);
  // Not whole (1e-400, 2.5), or more than int64's 19 digits: no exact integer.
  if (scale < 0 || static_cast<long long>(digits.size()) + scale > 19) return;
  std::uint64_t magnitude = 0;
  for (const char c : digits) magnitude = magnitude * 10 + static_cast<std::uint64_t>(c - '0');
  for (long long i = 0; i < scale; ++i) {
    if (magnitude > std::numeric_limits<std::uint64_t>::max() / 10) return;
    magnitude *= 10;
  }
  const std::uint64_t limit = parts.negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
  if (magnitude > limit) return;
  number.is_integer = true;
  number.integer = parts.negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
}

// True when a finite `value` becomes an infinity once stored as `type` (f16 and bf16 are
// stored from the f32 rounding, as write_element does).
bool overflows(double value, DType type) {
  const double magnitude = std::fabs(value);
  if (type == DType::f64) return false;
  if (magnitude >= kF32Overflow) return true;
  const double stored = std::fabs(static_cast<double>(static_cast<float>(magnitude)));
  if (type == DType::f16) return stored >= kF16Overflow;
  if (type == DType::bf16) return stored >= kBF16Overflow;
  return false;
}

}  // namespace

WrittenNumber read_written_number(std::string_view text) {
  WrittenNumber number;
  if (text == "nan" || text == "inf" || text == "-inf") {
    number.reading = NumberReading::number;
    number.value.real = text == "nan" ? std::numeric_limits<double>::quiet_NaN()
                        : text == "inf" ? std::numeric_limits<double>::infinity()
                                        : -std::numeric_limits<double>::infinity();
    return number;
  }
  const std::optional<DecimalParts> parts = split_decimal(text);
  if (!parts) return number;
  // from_chars rounds correctly; out of range it reports which, and the parts say which way:
  // more integer digits than the exponent takes away is past a double, else below its
  // smallest subnormal (which reads as zero, as in an init file).
  double real = 0;
  const auto [end, error] = read_double(text.data(), text.data() + text.size(), real);
  if (error == std::errc::result_out_of_range) {
    const bool huge = static_cast<long long>(parts->integer_digits.size()) + parts->exponent > 1;
    if (huge) {
      number.reading = NumberReading::beyond_double;
      return number;
    }
    real = parts->negative ? -0.0 : 0.0;
  } else if (error != std::errc() || end != text.data() + text.size()) {
    return number;
  }
  number.reading = NumberReading::number;
  number.value.real = real;
  read_exactly(*parts, number.value);
  return number;
}

std::optional<ElementValue> stored_as(const ElementValue& number, DType type) {
  if (!is_floating(type)) {
    if (!number.is_integer) return std::nullopt;
    const std::int64_t integer = number.integer;
    if (type == DType::i32 &&
        (integer < std::numeric_limits<std::int32_t>::min() || integer > std::numeric_limits<std::int32_t>::max()))
      return std::nullopt;
    return ElementValue{true, static_cast<double>(integer), integer};
  }
  // NaN and the infinities are what was asked for; a finite value must stay finite.
  if (std::isfinite(number.real) && overflows(number.real, type)) return std::nullopt;
  return ElementValue{false, number.real, 0};
}

ElementValue number_of_real(double real) {
  ElementValue number{false, real, 0};
  // 2^63 itself is outside int64; every whole double below it in magnitude converts exactly.
  if (std::isfinite(real) && std::floor(real) == real && real >= -0x1p63 && real < 0x1p63) {
    number.is_integer = true;
    number.integer = static_cast<std::int64_t>(real);
  }
  return number;
}

std::vector<std::vector<ElementValue>> numbers_of_reals(const std::vector<std::vector<double>>& rows) {
  std::vector<std::vector<ElementValue>> numbers(rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (const double real : rows[r]) numbers[r].push_back(number_of_real(real));
  return numbers;
}

std::string type_range(DType type) {
  switch (type) {
    case DType::i32: return "whole numbers from -2147483648 to 2147483647";
    case DType::i64: return "whole numbers from -9223372036854775808 to 9223372036854775807";
    case DType::f16: return "finite values up to ±65504, or \"nan\", \"inf\", \"-inf\"";
    case DType::bf16: return "finite values up to ±3.3895314e38, or \"nan\", \"inf\", \"-inf\"";
    case DType::f32: return "finite values up to ±3.4028235e38, or \"nan\", \"inf\", \"-inf\"";
    case DType::f64: return "finite values up to ±1.7976931348623157e308, or \"nan\", \"inf\", \"-inf\"";
  }
  return "";
}

std::string written_text(const ElementValue& value) {
  if (value.is_integer) return std::to_string(value.integer);
  if (std::isnan(value.real)) return "nan";
  if (std::isinf(value.real)) return value.real > 0 ? "inf" : "-inf";
  return shortest_text(value.real);
}

#if defined(__cpp_lib_to_chars)

std::from_chars_result read_double(const char* first, const char* last, double& value) {
  return std::from_chars(first, last, value);
}

namespace {

template <class... Format>
std::string to_text(auto value, Format... format) {
  char text[400];  // a fixed double can take 309 integer digits
  const auto [end, error] = std::to_chars(text, text + sizeof text, value, format...);
  return error == std::errc() ? std::string(text, end) : std::string();
}

}  // namespace

std::string shortest_text(double value) { return to_text(value); }
std::string shortest_text(float value) { return to_text(value); }
std::string shortest_fixed_text(double value) { return to_text(value, std::chars_format::fixed); }

#else

std::from_chars_result read_double(const char* first, const char* last, double& value) {
  // from_chars reads no sign but '-', no space, no hexadecimal, no "inf"/"nan" spelled otherwise;
  // strtod reads all of those, so only what from_chars would start reading is handed to it.
  const std::string text(first, last);
  const char* digits = text.c_str() + (text.starts_with('-') ? 1 : 0);
  const bool starts_a_number = std::isdigit(static_cast<unsigned char>(digits[0])) ||
                               (digits[0] == '.' && std::isdigit(static_cast<unsigned char>(digits[1])));
  const bool hexadecimal = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  if (!starts_a_number || hexadecimal) return {first, std::errc::invalid_argument};
  errno = 0;
  char* end = nullptr;
  const double read = std::strtod(text.c_str(), &end);
  const char* stop = first + (end - text.c_str());
  // strtod says ERANGE for a subnormal too; from_chars only for what is not a finite nonzero.
  if (errno == ERANGE && (std::isinf(read) || read == 0.0)) return {stop, std::errc::result_out_of_range};
  value = read;
  return {stop, std::errc()};
}

namespace {

// The fewest digits after the point, in `format` (%e or %f), that read back as `value`; "" when
// none up to `most` does.
template <class Float>
std::string fewest_digits(Float value, const char* format, int most) {
  char text[400];
  for (int digits = 0; digits <= most; ++digits) {
    std::snprintf(text, sizeof text, format, digits, static_cast<double>(value));
    if (static_cast<Float>(std::strtod(text, nullptr)) == value) return text;
  }
  return "";
}

// As std::to_chars without a format: the shortest of the shortest scientific and the shortest
// fixed form that read back, fixed when they are as long.
template <class Float>
std::string shortest_either(Float value) {
  const std::string scientific = fewest_digits(value, "%.*e", 17);
  // A fixed form is at least as long as the exponent is large: only near 1 can it win.
  const int exponent = value == 0 ? 0 : static_cast<int>(std::floor(std::log10(std::fabs(static_cast<double>(value)))));
  if (exponent < -24 || exponent > 24) return scientific;
  const std::string fixed = fewest_digits(value, "%.*f", 48);
  return !fixed.empty() && fixed.size() <= scientific.size() ? fixed : scientific;
}

}  // namespace

std::string shortest_text(double value) { return shortest_either(value); }
std::string shortest_text(float value) { return shortest_either(value); }
std::string shortest_fixed_text(double value) { return fewest_digits(value, "%.*f", 1100); }

#endif

}  // namespace ringviz
