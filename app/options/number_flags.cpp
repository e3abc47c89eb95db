#include "app/options/number_flags.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
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
  const std::string range =
      " (" + std::to_string(low) + " to " + std::to_string(high) + (unit.empty() ? "" : " " + unit) + ")";
  std::int64_t value = 0;
  try {
    value = parse_whole_number(text, flag);
  } catch (const InputError& error) {
    // "-0" or "-3" is a number, only below the range: say so, as for any other value outside it.
    if (!text.empty() && text[0] == '-' && text.size() > 1 &&
        text.find_first_not_of("0123456789", 1) == std::string::npos)
      throw InputError(flag + ": " + text + " is out of range" + range);
    throw InputError(error.what() + range);
  }
  if (value < low || value > high) throw InputError(flag + ": " + text + " is out of range" + range);
  return value;
}

std::vector<std::int64_t> parse_splits(const std::string& text, int ranks, const std::string& flag) {
  const std::string example = " (e.g. 3,1/0,2 on 2 GPUs: row s lists what GPU s sends to GPU 0, 1, ...)";
  std::vector<std::int64_t> splits;
  int row = 0;
  for (std::size_t start = 0;; ++row) {
    const std::size_t end = std::min(text.find('/', start), text.size());
    const std::string row_text = text.substr(start, end - start);
    if (row >= ranks)
      throw InputError(flag + ": more than " + std::to_string(ranks) + " rows for " + std::to_string(ranks) +
                       " GPUs (--gpus); give one row per GPU" + example);
    int blocks = 0;
    for (std::size_t at = 0; at <= row_text.size(); ++blocks) {
      const std::size_t comma = std::min(row_text.find(',', at), row_text.size());
      const std::string where = flag + " row " + std::to_string(row) + ", block " + std::to_string(blocks);
      if (blocks < ranks) splits.push_back(parse_number_in_range(row_text.substr(at, comma - at), where, 0, kMaxCount));
      at = comma + 1;
    }
    if (blocks != ranks)
      throw InputError(flag + ": row " + std::to_string(row) + " has " + std::to_string(blocks) + " blocks; give " +
                       std::to_string(ranks) + ", one per GPU" + example);
    if (end == text.size()) break;
    start = end + 1;
  }
  if (row + 1 != ranks)
    throw InputError(flag + ": " + std::to_string(row + 1) + " rows for " + std::to_string(ranks) +
                     " GPUs (--gpus); give one row per GPU" + example);
  return splits;
}

int parse_gpu_count(const std::string& text, const std::string& flag, int most) {
  return static_cast<int>(parse_number_in_range(text, flag, 1, most));
}

int parse_root_gpu(const std::string& text, const std::string& flag, int ranks) {
  const std::string range = "give 0 to " + std::to_string(ranks - 1);
  const bool negative_number = text.size() > 1 && text[0] == '-' && text.find_first_not_of("0123456789", 1) == std::string::npos;
  std::int64_t value = -1;
  if (!negative_number) {
    try {
      value = parse_whole_number(text, flag);
    } catch (const InputError& error) {
      throw InputError(error.what() + std::string("; ") + range);
    }
  }
  if (value < 0 || value >= ranks)
    throw InputError(flag + ": " + text + " is not a GPU of a ring of " + std::to_string(ranks) + " (--gpus); " + range);
  return static_cast<int>(value);
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

float parse_ui_scale_text(const std::string& text, const std::string& flag) {
  const double scale = parse_real_in_range(text, flag, 0, 4, "0 (automatic) or 0.5 to 4");
  if (scale != 0 && scale < 0.5) throw InputError(flag + ": " + text + " is out of range (0 (automatic) or 0.5 to 4)");
  return static_cast<float>(scale);
}

bool is_plain_decimal(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789+-.eE") == std::string::npos;
}

double parse_real_in_range(const std::string& text, const std::string& flag, double low, double high,
                           const std::string& accepted) {
  const bool plain = is_plain_decimal(text);
  char* end = nullptr;
  const double value = plain ? std::strtod(text.c_str(), &end) : 0;
  if (!plain || end != text.c_str() + text.size())
    throw InputError(flag + ": '" + text + "' is not a number (" + accepted + ")");
  if (!std::isfinite(value) || !(value >= low && value <= high)) throw InputError(flag + ": " + text + " is out of range (" + accepted + ")");
  return value;
}

std::string long_flag_name(const std::string& names) {
  const std::size_t start = names.find("--");
  if (start == std::string::npos) return names;
  return names.substr(start, names.find(',', start) - start);
}

}  // namespace ringviz::cli
