#include "app/cli/number_flags.h"

#include <cctype>
#include <limits>

namespace ringviz::cli {

std::int64_t parse_whole_number(const std::string& text, const std::string& flag,
                                bool allow_suffix) {
  const auto fail = [&](const std::string& why) -> std::int64_t {
    throw InputError(flag + ": '" + text + "' " + why);
  };
  std::size_t digits = 0;
  const bool negative = !text.empty() && text[0] == '-';
  std::size_t start = negative ? 1 : 0;
  while (start + digits < text.size() && std::isdigit(static_cast<unsigned char>(text[start + digits])))
    ++digits;
  if (digits == 0) return fail("is not a whole number");
  std::int64_t multiplier = 1;
  const std::string suffix = text.substr(start + digits);
  if (!suffix.empty()) {
    if (!allow_suffix) return fail("is not a whole number");
    if (suffix == "K" || suffix == "k") multiplier = std::int64_t{1} << 10;
    else if (suffix == "M" || suffix == "m") multiplier = std::int64_t{1} << 20;
    else if (suffix == "G" || suffix == "g") multiplier = std::int64_t{1} << 30;
    else return fail("has an unknown suffix (use K, M or G)");
  }
  if (negative) return fail("must not be negative");
  std::int64_t value = 0;
  for (std::size_t i = start; i < start + digits; ++i) {
    if (value > (std::numeric_limits<std::int64_t>::max() - 9) / 10) return fail("is too large");
    value = value * 10 + (text[i] - '0');
  }
  if (value > std::numeric_limits<std::int64_t>::max() / multiplier) return fail("is too large");
  return value * multiplier;
}

std::int64_t parse_number_in_range(const std::string& text, const std::string& flag,
                                   std::int64_t low, std::int64_t high, const std::string& unit) {
  const std::int64_t value = parse_whole_number(text, flag);
  if (value < low || value > high)
    throw InputError(flag + ": " + text + " is out of range (" + std::to_string(low) + " to " +
                     std::to_string(high) + (unit.empty() ? "" : " " + unit) + ")");
  return value;
}

int parse_gpu_count(const std::string& text, const std::string& flag, int most) {
  return static_cast<int>(parse_number_in_range(text, flag, 1, most));
}

std::int64_t parse_element_count(const std::string& text, const std::string& flag) {
  const std::int64_t count = parse_whole_number(text, flag, true);
  if (count > kMaxCount) throw InputError(flag + ": " + text + " is too large (at most 2^40)");
  return count;
}

float parse_ui_scale(float scale, const std::string& flag) {
  if (scale == 0) return scale;
  if (!(scale >= 0.5f && scale <= 4.0f)) throw InputError(flag + ": must be 0 (automatic) or between 0.5 and 4");
  return scale;
}

}  // namespace ringviz::cli
