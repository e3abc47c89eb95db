#include "core/input/initial_values.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/algorithms/registry.h"
#include "core/input/json_input.h"
#include "core/model/layout.h"
#include "core/model/text.h"

namespace ringviz {

std::uint64_t splitmix64_at(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

namespace {

// Init files may be large (one number per element), but bounded: a file may grow as it is read.
constexpr std::uintmax_t kMaxInitFileBytes = std::uintmax_t{1} << 30;

// Magnitudes from which a double no longer rounds to a finite value of the type:
// the largest finite value plus half a step (ties round to even, which is the infinity).
constexpr double kF32Overflow = 0x1.ffffffp127;  // 2^128 - 2^103
constexpr double kF16Overflow = 65520.0;         // 2^16 - 2^4; largest f16 65504
constexpr double kBF16Overflow = 0x1.ffp127;     // 2^128 - 2^119

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

std::optional<ElementValue> integer_element(const nlohmann::json& value, bool written_whole, DType type) {
  const std::int64_t low = type == DType::i32 ? std::numeric_limits<std::int32_t>::min() : std::numeric_limits<std::int64_t>::min();
  const std::int64_t high = type == DType::i32 ? std::numeric_limits<std::int32_t>::max() : std::numeric_limits<std::int64_t>::max();
  std::int64_t integer = 0;
  if (value.is_number_unsigned()) {
    if (value.get<std::uint64_t>() > static_cast<std::uint64_t>(high)) return std::nullopt;
    integer = static_cast<std::int64_t>(value.get<std::uint64_t>());
  } else if (value.is_number_integer()) {
    integer = value.get<std::int64_t>();
  } else {
    // A float in the file: only whole values inside the range; 2^63 itself is outside.
    const double real = value.get<double>();
    if (!written_whole || std::floor(real) != real || !(real >= -0x1p63 && real < 0x1p63)) return std::nullopt;
    integer = static_cast<std::int64_t>(real);
  }
  if (integer < low || integer > high) return std::nullopt;
  return ElementValue{true, static_cast<double>(integer), integer};
}

// How a value the type refuses is shown: numbers as written, short strings quoted and
// escaped, anything else by its kind (an array may hold a million numbers).
std::string shown_value(const nlohmann::json& value) {
  if (value.is_number()) return value.dump();
  if (value.is_string()) {
    return "\"" + shortened_for_message(value.get_ref<const std::string&>()) + "\"";
  }
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  return value.dump();  // null, true, false
}

// One element of an init file, checked against the element type.
class InitFileReader {
 public:
  InitFileReader(const Config& config, std::string text)
      : config_(config), text_(std::move(text)),
        source_("init file " + escape_for_message(config.init.path)),
        document_(parse_json_input(text_, source_)) {}

  const nlohmann::json& document() const { return document_; }

  [[noreturn]] void fail(const std::string& pointer, const std::string& where, const std::string& problem) const {
    throw InputError(json_value_position(text_, source_, pointer) + ": " + where + (where.empty() ? "" : ": ") + problem);
  }

  ElementValue element(const nlohmann::json& value, int rank, std::size_t index) const {
    const std::string pointer = "/" + std::to_string(rank) + "/" + std::to_string(index);
    const std::string where = "[" + std::to_string(rank) + "][" + std::to_string(index) + "] (GPU " +
                              std::to_string(rank) + ", element " + std::to_string(index) + ")";
    const DType type = config_.dtype;
    if (value.is_string()) {
      const std::string& text = value.get_ref<const std::string&>();
      const bool special = text == "nan" || text == "inf" || text == "-inf";
      if (!special) fail(pointer, where, "expected a number or \"nan\", \"inf\", \"-inf\", found " + shown_value(value));
      if (!is_floating(type)) fail(pointer, where, does_not_fit(value.dump(), type));
      return {false, text == "nan" ? std::nan("") : text == "inf" ? HUGE_VAL : -HUGE_VAL, 0};
    }
    if (!value.is_number()) fail(pointer, where, "expected a number or \"nan\", \"inf\", \"-inf\", found " + shown_value(value));
    const std::optional<ElementValue> stored = number_as_element(value, written_whole(pointer, value), type);
    if (!stored) fail(pointer, where, does_not_fit(as_written(pointer), type));
    return *stored;
  }

 private:
  // A number as the file spells it (1e23, not its double 9.999999999999999e+22).
  std::string as_written(const std::string& pointer) const {
    const std::size_t start = json_value_offset(text_, pointer);
    const std::size_t end = text_.find_first_of(",] \t\r\n", start);
    return std::string(std::string_view(text_).substr(start, end - start));
  }

  // Only a float under an integer type needs its text, and then only the first fractional one
  // matters: the file is refused there. Found by one pass, once, so a file of a million
  // "3.0" stays linear.
  bool written_whole(const std::string& pointer, const nlohmann::json& value) const {
    if (!value.is_number_float() || is_floating(config_.dtype)) return true;
    if (!first_fractional_) first_fractional_ = first_fractional_number(text_);
    return pointer != *first_fractional_;
  }

  const Config& config_;
  std::string text_;
  std::string source_;
  nlohmann::json document_;
  mutable std::optional<std::string> first_fractional_;
};

}  // namespace

std::optional<ElementValue> number_as_element(const nlohmann::json& number, bool written_whole, DType type) {
  if (!is_floating(type)) return integer_element(number, written_whole, type);
  const double real = number.get<double>();
  if (overflows(real, type)) return std::nullopt;
  if (number.is_number_integer() && !(number.is_number_unsigned() && number.get<std::uint64_t>() >
                                                                       static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())))
    return ElementValue{true, real, number.get<std::int64_t>()};
  return ElementValue{false, real, 0};
}

std::string does_not_fit(std::string_view written, DType type) {
  return shortened_for_message(written) + " does not fit " + std::string(dtype_name(type)) + " (" + type_range(type) + ")";
}

namespace {

// Reads a JSON array of `ranks` arrays of `count` numbers.
std::vector<std::vector<ElementValue>> read_input_file(const Config& config) {
  const InitFileReader reader(config, read_input_text(config.init.path, "init file", kMaxInitFileBytes));
  const nlohmann::json& document = reader.document();
  if (!document.is_array() || document.size() != static_cast<std::size_t>(config.ranks))
    reader.fail("", "top level",
               "expected an array of " + std::to_string(config.ranks) +
                   " arrays (one per GPU), found " +
                   (document.is_array() ? std::to_string(document.size()) + " entries"
                                        : std::string(document.type_name())));
  std::vector<std::vector<ElementValue>> rows(static_cast<std::size_t>(config.ranks));
  for (int rank = 0; rank < config.ranks; ++rank) {
    const auto& row = document[static_cast<std::size_t>(rank)];
    const std::string where = "[" + std::to_string(rank) + "]";
    if (!row.is_array() || row.size() != static_cast<std::size_t>(config.count))
      reader.fail("/" + std::to_string(rank), where,
                 "expected an array of count = " + std::to_string(config.count) +
                     " numbers, found " +
                     (row.is_array() ? std::to_string(row.size()) + " entries"
                                     : std::string(row.type_name())));
    for (std::size_t i = 0; i < row.size(); ++i)
      rows[static_cast<std::size_t>(rank)].push_back(reader.element(row[i], rank, i));
  }
  return rows;
}

ElementValue random_value(const Config& config, int rank, std::int64_t index) {
  const std::uint64_t bits = splitmix64_at(
      config.init.random_seed, static_cast<std::uint64_t>(rank) * config.count + index);
  if (!is_floating(config.dtype)) {
    const std::int64_t value = static_cast<std::int64_t>(bits % 201) - 100;  // [-100, 100]
    return {true, static_cast<double>(value), value};
  }
  // Uniform in [-1, 1) from the top 53 bits.
  return {false, static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0, 0};
}

ElementValue integer_value(std::int64_t value) { return {true, static_cast<double>(value), value}; }

}  // namespace

std::int64_t seed_input_value(int rank, std::int64_t index, std::int64_t count) {
  return rank * count + index + 1;
}

void check_initial_values(const Config& config) {
  if (config.init.kind == InitKind::file) read_input_file(config);
}

BufferState make_initial_state(const Config& config) {
  validate_or_throw(config);
  const SlotLayout layout = make_layout(config);
  BufferState state = BufferState::zeros(config.dtype, config.ranks, layout.elements_per_rank);
  std::vector<std::vector<ElementValue>> file_rows;
  if (config.init.kind == InitKind::file) file_rows = read_input_file(config);

  for (int rank = 0; rank < config.ranks; ++rank) {
    const std::int64_t base = config.op == Op::allgather ? layout[rank].offset : 0;
    for (std::int64_t i = 0; i < config.count; ++i) {
      ElementValue value;
      switch (config.init.kind) {
        case InitKind::seed: value = integer_value(seed_input_value(rank, i, config.count)); break;
        case InitKind::rank: value = integer_value(rank + 1); break;
        case InitKind::index: value = integer_value(i); break;
        case InitKind::random: value = random_value(config, rank, i); break;
        case InitKind::file:
          value = file_rows[static_cast<std::size_t>(rank)][static_cast<std::size_t>(i)];
          break;
        case InitKind::values:
          value = {false,
                   config.init.values[static_cast<std::size_t>(rank)][static_cast<std::size_t>(i)],
                   0};
          break;
      }
      write_element(state, rank, base + i, value);
    }
  }
  return state;
}

std::string values_init_text(const std::vector<std::vector<double>>& rows) {
  std::string text("values:");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (r > 0) text += '/';
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      if (i > 0) text += ',';
      char number[40];
      // Shortest text that reads back as the same double.
      const auto [end, error] = std::to_chars(number, number + sizeof number, rows[r][i]);
      text.append(number, error == std::errc() ? end : number);
    }
  }
  return text;
}

}  // namespace ringviz
