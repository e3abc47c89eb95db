#include "core/input/initial_values.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/algorithms/registry.h"
#include "core/input/json_input.h"
#include "core/model/checked_value.h"
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
      return read_written_number(text).value;
    }
    if (!value.is_number()) fail(pointer, where, "expected a number or \"nan\", \"inf\", \"-inf\", found " + shown_value(value));
    // Integers the library read exactly need no text; a float under an integer type does
    // (1e-400 is not whole, -9223372036854775809 is below int64 although its double is not).
    const bool needs_text = value.is_number_float() && !is_floating(type);
    const std::optional<ElementValue> stored =
        needs_text ? stored_as(read_written_number(written(rank, index)).value, type) : number_as_element(value, type);
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

  // The text of element [rank][index], from one pass over the file made when first needed, so
  // that a file of a million "3.0" under i32 stays linear.
  std::string_view written(int rank, std::size_t index) const {
    if (!row_texts_) row_texts_ = array_row_value_texts(text_);
    return (*row_texts_)[static_cast<std::size_t>(rank)][index];
  }

  const Config& config_;
  std::string text_;
  std::string source_;
  nlohmann::json document_;
  mutable std::optional<std::vector<std::vector<std::string_view>>> row_texts_;
};

}  // namespace

std::optional<ElementValue> number_as_element(const nlohmann::json& number, DType type) {
  ElementValue read;
  if (number.is_number_unsigned() && number.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    read = {false, number.get<double>(), 0};  // whole, but beyond int64
  else if (number.is_number_integer())
    read = {true, number.get<double>(), number.get<std::int64_t>()};
  else
    read = number_of_real(number.get<double>());
  return stored_as(read, type);
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
  check_init_values(config.init, config.dtype);
  if (config.init.kind == InitKind::file) read_input_file(config);
}

BufferState make_initial_state(const Config& config) {
  validate_or_throw(config);
  check_init_values(config.init, config.dtype);
  const SlotLayout layout = make_layout(config);
  BufferState state = BufferState::zeros(config.dtype, config.ranks, layout.elements_per_rank);
  std::vector<std::vector<ElementValue>> file_rows;
  if (config.init.kind == InitKind::file) file_rows = read_input_file(config);

  for (int rank = 0; rank < config.ranks; ++rank) {
    // Broadcast reads the root's input only: the others' buffers wait, zero, for its data.
    if (config.op == Op::broadcast && rank != config.root) continue;
    const std::int64_t base = input_offset(config, layout, rank);
    for (std::int64_t i = 0; i < input_elements_taken(config, rank); ++i) {
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
          value = config.init.values[static_cast<std::size_t>(rank)][static_cast<std::size_t>(i)];
          break;
      }
      write_element(state, rank, base + i, value);
    }
  }
  return state;
}

std::string values_init_text(const std::vector<std::vector<ElementValue>>& rows) {
  std::string text("values:");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (r > 0) text += '/';
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      if (i > 0) text += ',';
      text += written_text(rows[r][i]);  // reads back as the same value (checked_value.h)
    }
  }
  return text;
}

}  // namespace ringviz
