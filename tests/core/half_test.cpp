// half.h against an independent model of the two 16-bit formats: every value decoded with
// ldexp from its sign, exponent and mantissa, and float -> 16 bits rounded by bracketing the
// float between neighbouring 16-bit values in double arithmetic.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/model/half.h"
#include "core/input/initial_values.h"

namespace ringviz {
namespace {

struct Format {
  const char* name;
  int exponent_bits;
  int mantissa_bits;
  std::uint16_t (*from_float)(float);
  float (*to_float)(std::uint16_t);

  std::uint32_t infinity_bits() const { return ((1u << exponent_bits) - 1u) << mantissa_bits; }
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
};

const Format kHalf{"f16", 5, 10, [](float value) { return half_from_float(value).bits; },
                   [](std::uint16_t bits) { return half_to_float(Half{bits}); }};
const Format kBFloat16{"bf16", 8, 7, [](float value) { return bfloat16_from_float(value).bits; },
                       [](std::uint16_t bits) { return bfloat16_to_float(BFloat16{bits}); }};

// The value of a non-negative pattern. The all-ones exponent with a zero mantissa decodes as
// the next power of two (2^16 for f16, 2^128 for bf16), which is exactly where IEEE rounding
// treats infinity as sitting, so the patterns 0 ... infinity form one increasing sequence.
double decode(const Format& format, std::uint32_t magnitude) {
  const std::uint32_t mantissa = magnitude & ((1u << format.mantissa_bits) - 1u);
  const int exponent = static_cast<int>(magnitude >> format.mantissa_bits);
  if (exponent == 0) return std::ldexp(mantissa, 1 - format.bias() - format.mantissa_bits);
  return std::ldexp((1u << format.mantissa_bits) + mantissa,
                    exponent - format.bias() - format.mantissa_bits);
}

// decode() of every pattern from zero to infinity, for bracketing.
std::vector<double> magnitudes(const Format& format) {
  std::vector<double> table;
  for (std::uint32_t bits = 0; bits <= format.infinity_bits(); ++bits) table.push_back(decode(format, bits));
  return table;
}

bool is_nan_pattern(const Format& format, std::uint16_t bits) {
  const std::uint32_t magnitude = bits & 0x7fffu;
  return magnitude > format.infinity_bits();
}

// Round-to-nearest-even of a non-NaN float: find the neighbours lo <= |x| < hi, compare 2|x|
// with lo + hi (both sides exact in double), and on a tie take the even pattern.
std::uint16_t reference_round(const Format& format, const std::vector<double>& table, float value) {
  const auto sign = static_cast<std::uint16_t>(std::signbit(value) ? 0x8000u : 0u);
  const double magnitude = std::fabs(static_cast<double>(value));
  if (magnitude >= table.back()) return static_cast<std::uint16_t>(sign | format.infinity_bits());
  const auto above = std::upper_bound(table.begin(), table.end(), magnitude);
  const auto low = static_cast<std::uint32_t>(above - table.begin() - 1);
  const double lo = table[low];
  const double hi = table[low + 1];
  std::uint32_t chosen = low;
  if (2 * magnitude > lo + hi || (2 * magnitude == lo + hi && (low & 1u))) chosen = low + 1;
  return static_cast<std::uint16_t>(sign | chosen);
}

std::string hex(std::uint32_t bits) {
  std::ostringstream text;
  text << "0x" << std::hex << bits;
  return text.str();
}

// What a failed CHECK prints: the float and the two patterns, e.g. "1.00048828 -> 0x3c00".
std::string conversion(float value, std::uint16_t bits) {
  std::ostringstream text;
  text.precision(9);
  text << value << " (" << hex(float_bits(value)) << ") -> " << hex(bits);
  return text.str();
}

// Checks every input of `values`, reporting only the first wrong one so a broken rounding
// does not print millions of lines; returns how many were checked.
std::size_t check_rounding(const Format& format, const std::vector<double>& table,
                           const std::vector<float>& values) {
  for (float value : values) {
    const std::uint16_t got = format.from_float(value);
    if (std::isnan(value)) {
      // NaN stays NaN, keeps its sign and comes out quiet (the top mantissa bit set).
      const bool quiet_nan = is_nan_pattern(format, got) &&
                             (got & (1u << (format.mantissa_bits - 1))) != 0 &&
                             (got & 0x8000u) == (std::signbit(value) ? 0x8000u : 0u);
      if (!quiet_nan) {
        CHECK(conversion(value, got) == conversion(value, 0x7fff));
        return 0;
      }
      continue;
    }
    const std::uint16_t want = reference_round(format, table, value);
    if (got != want) {
      CHECK(conversion(value, got) == conversion(value, want));
      return 0;
    }
  }
  return values.size();
}

// Floats on and around every rounding boundary: each 16-bit value, each midpoint between two
// neighbours (the ties) and the floats just either side of it, in both signs.
std::vector<float> boundary_floats(const std::vector<double>& table) {
  std::vector<float> values;
  for (std::size_t k = 0; k + 1 < table.size(); ++k) {
    const auto exact = static_cast<float>(table[k]);
    const auto midpoint = static_cast<float>((table[k] + table[k + 1]) / 2);  // exact in float
    for (float value : {exact, midpoint, std::nextafter(midpoint, 0.0f),
                        std::nextafter(midpoint, std::numeric_limits<float>::infinity())}) {
      values.push_back(value);
      values.push_back(-value);
    }
  }
  return values;
}

// Floats drawn uniformly over all 2^32 bit patterns: every exponent is as likely as any
// other, so subnormals, huge values, infinities and NaNs all turn up.
std::vector<float> sampled_floats(std::uint64_t seed, std::size_t how_many) {
  std::vector<float> values;
  values.reserve(how_many);
  for (std::size_t i = 0; i < how_many; ++i)
    values.push_back(float_from_bits(static_cast<std::uint32_t>(splitmix64_at(seed, i))));
  return values;
}

void check_every_pattern_round_trips(const Format& format) {
  std::size_t checked = 0;
  for (std::uint32_t bits = 0; bits <= 0xffffu; ++bits) {
    const auto pattern = static_cast<std::uint16_t>(bits);
    const float widened = format.to_float(pattern);
    if (is_nan_pattern(format, pattern)) {
      // The quiet bit is forced on the way back; the sign and the rest of the payload stay.
      const auto quieted = static_cast<std::uint16_t>(pattern | (1u << (format.mantissa_bits - 1)));
      if (!std::isnan(widened) || format.from_float(widened) != quieted) {
        CHECK(hex(format.from_float(widened)) == hex(quieted));
        return;
      }
      ++checked;
      continue;
    }
    const double magnitude = pattern & 0x7fffu ? decode(format, pattern & 0x7fffu) : 0.0;
    const double expected_value =
        (pattern & 0x7fffu) == format.infinity_bits() ? std::numeric_limits<double>::infinity() : magnitude;
    const double expected = (pattern & 0x8000u) ? -expected_value : expected_value;
    const bool exact = static_cast<double>(widened) == expected &&
                       std::signbit(widened) == ((pattern & 0x8000u) != 0);
    if (!exact || format.from_float(widened) != pattern) {
      CHECK(conversion(widened, format.from_float(widened)) == conversion(static_cast<float>(expected), pattern));
      return;
    }
    ++checked;
  }
  CHECK(checked == 65536);
}

TEST_CASE("Every f16 and bf16 bit pattern widens to its exact value and narrows back to itself") {
  SUBCASE("f16") { check_every_pattern_round_trips(kHalf); }
  SUBCASE("bf16") { check_every_pattern_round_trips(kBFloat16); }
}

void check_float_rounding(const Format& format, std::uint64_t seed) {
  const std::vector<double> table = magnitudes(format);
  const std::vector<float> boundaries = boundary_floats(table);
  CHECK(check_rounding(format, table, boundaries) == boundaries.size());
  const std::vector<float> sampled = sampled_floats(seed, std::size_t{1} << 21);
  CHECK(check_rounding(format, table, sampled) == sampled.size());
  const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::max(), std::numeric_limits<float>::lowest(),
                            std::numeric_limits<float>::min(), std::numeric_limits<float>::denorm_min(),
                            std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                            float_from_bits(0x7f800001u), float_from_bits(0xffbfffffu)};
  CHECK(check_rounding(format, table, {std::begin(specials), std::end(specials)}) == std::size(specials));
}

TEST_CASE("Floats round to the nearest f16 and bf16, ties to even, over boundaries and two million samples") {
  SUBCASE("f16") { check_float_rounding(kHalf, 16); }
  SUBCASE("bf16") { check_float_rounding(kBFloat16, 32); }
}

TEST_CASE("Named f16 cases: ties go to the even neighbour, 65520 overflows, 2^-25 underflows") {
  const auto bits = [](float value) { return hex(half_from_float(value).bits); };
  CHECK(bits(1.0f) == "0x3c00");
  CHECK(bits(1.0f + 0x1.0p-11f) == "0x3c00");         // halfway to 0x3c01: the even 0x3c00
  CHECK(bits(1.0f + 3 * 0x1.0p-11f) == "0x3c02");     // halfway 0x3c01..0x3c02: the even one
  CHECK(bits(1.0f + 0x1.0p-11f + 0x1.0p-23f) == "0x3c01");  // just past halfway rounds up
  CHECK(bits(65504.0f) == "0x7bff");                  // the largest f16
  CHECK(bits(65519.996f) == "0x7bff");
  CHECK(bits(65520.0f) == "0x7c00");                  // halfway to 2^16 rounds to infinity
  CHECK(bits(0x1.0p-24f) == "0x1");                   // the smallest subnormal
  CHECK(bits(0x1.0p-25f) == "0x0");                   // half of it: the even neighbour, zero
  CHECK(bits(0x1.000002p-25f) == "0x1");
  CHECK(bits(0x1.8p-24f) == "0x2");                   // 1.5 units: tie to the even 2
  CHECK(bits(0x1.ffcp-15f) == "0x400");  // halfway from the largest (odd) subnormal to 2^-14
  CHECK(bits(-0.0f) == "0x8000");
  CHECK(bits(-std::numeric_limits<float>::infinity()) == "0xfc00");
  CHECK(bits(std::numeric_limits<float>::quiet_NaN()) == "0x7e00");
}

TEST_CASE("Named bf16 cases: ties go to the even neighbour and the largest float overflows") {
  const auto bits = [](float value) { return hex(bfloat16_from_float(value).bits); };
  CHECK(bits(1.0f) == "0x3f80");
  CHECK(bits(1.0f + 0x1.0p-8f) == "0x3f80");          // halfway to 0x3f81: the even 0x3f80
  CHECK(bits(1.0f + 3 * 0x1.0p-8f) == "0x3f82");
  CHECK(bits(1.0f + 0x1.0p-8f + 0x1.0p-23f) == "0x3f81");
  CHECK(bits(std::numeric_limits<float>::max()) == "0x7f80");
  CHECK(bits(std::numeric_limits<float>::denorm_min()) == "0x0");
  CHECK(bits(-std::numeric_limits<float>::quiet_NaN()) == "0xffc0");
}

}  // namespace
}  // namespace ringviz
