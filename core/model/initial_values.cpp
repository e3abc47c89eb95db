#include "core/model/initial_values.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/model/layout.h"

namespace ringviz {

std::uint64_t splitmix64_at(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

namespace {

[[noreturn]] void file_error(const std::string& path, const std::string& where,
                             const std::string& problem) {
  throw InputError("init file " + path + ": " + where + (where.empty() ? "" : ": ") + problem);
}

ElementValue parse_file_number(const nlohmann::json& value, const std::string& path,
                               const std::string& where) {
  if (value.is_number_integer()) {
    const std::int64_t integer = value.is_number_unsigned()
                                     ? static_cast<std::int64_t>(value.get<std::uint64_t>())
                                     : value.get<std::int64_t>();
    return {true, static_cast<double>(integer), integer};
  }
  if (value.is_number()) return {false, value.get<double>(), 0};
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (text == "nan") return {false, std::nan(""), 0};
    if (text == "inf") return {false, HUGE_VAL, 0};
    if (text == "-inf") return {false, -HUGE_VAL, 0};
  }
  file_error(path, where, "expected a number or \"nan\", \"inf\", \"-inf\", found " + value.dump());
}

// Reads a JSON array of `ranks` arrays of `count` numbers.
std::vector<std::vector<ElementValue>> read_input_file(const Config& config) {
  const std::string& path = config.init.path;
  std::ifstream file(path);
  if (!file) file_error(path, "", "cannot be opened (does it exist and is it readable?)");
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(file);
  } catch (const nlohmann::json::parse_error& error) {
    file_error(path, "byte " + std::to_string(error.byte), "not valid JSON");
  }
  if (!document.is_array() || document.size() != static_cast<std::size_t>(config.ranks))
    file_error(path, "top level",
               "expected an array of " + std::to_string(config.ranks) +
                   " arrays (one per GPU), found " +
                   (document.is_array() ? std::to_string(document.size()) + " entries"
                                        : std::string(document.type_name())));
  std::vector<std::vector<ElementValue>> rows(static_cast<std::size_t>(config.ranks));
  for (int rank = 0; rank < config.ranks; ++rank) {
    const auto& row = document[static_cast<std::size_t>(rank)];
    std::string where = "[";
    where += std::to_string(rank) + "]";
    if (!row.is_array() || row.size() != static_cast<std::size_t>(config.count))
      file_error(path, where,
                 "expected an array of count = " + std::to_string(config.count) +
                     " numbers, found " +
                     (row.is_array() ? std::to_string(row.size()) + " entries"
                                     : std::string(row.type_name())));
    for (std::size_t i = 0; i < row.size(); ++i)
      rows[static_cast<std::size_t>(rank)].push_back(
          parse_file_number(row[i], path, where + "[" + std::to_string(i) + "]"));
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

}  // namespace ringviz
