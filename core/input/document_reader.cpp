#include "core/input/document_reader.h"

#include <algorithm>
#include <cmath>

#include "core/input/initial_values.h"
#include "core/model/text.h"

namespace ringviz {

using nlohmann::json;

// "/rounds/2/transfers/0" as a reader names it: "rounds[2].transfers[0]".
std::string readable_path(std::string_view pointer) {
  std::string path;
  std::size_t at = 1;
  while (at <= pointer.size() && !pointer.empty()) {
    const std::size_t next = std::min(pointer.find('/', at), pointer.size());
    const std::string_view token = pointer.substr(at, next - at);
    const bool index = !token.empty() && token.find_first_not_of("0123456789") == std::string_view::npos;
    if (index) path += "[" + std::string(token) + "]";
    else path += (path.empty() ? "" : ".") + std::string(token);
    at = next + 1;
  }
  return path.empty() ? "top level" : path;
}

std::string kind_of(const json& value) {
  if (value.is_string()) return "\"" + shortened_for_message(value.get_ref<const std::string&>()) + "\"";
  if (value.is_number()) return shortened_for_message(value.dump());
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  return value.dump();
}


void DocumentReader::fail(const std::string& pointer, const std::string& problem) const {
    throw InputError(json_value_position(text_, source_, pointer) + ": " + readable_path(pointer) + ": " + problem);
  }

const nlohmann::json& DocumentReader::object(const nlohmann::json& value, const std::string& pointer) const {
    if (!value.is_object()) fail(pointer, "expected an object, found " + kind_of(value));
    return value;
  }

const nlohmann::json& DocumentReader::array(const nlohmann::json& value, const std::string& pointer, std::size_t size) const {
    if (!value.is_array() || value.size() != size)
      fail(pointer, "expected an array of " + std::to_string(size) + " entries, found " +
                        (value.is_array() ? std::to_string(value.size()) + " entries" : kind_of(value)));
    return value;
  }

const nlohmann::json& DocumentReader::member(const nlohmann::json& parent, const std::string& pointer, const char* key) const {
    const auto found = parent.find(key);
    if (found == parent.end()) fail(pointer, std::string("missing \"") + key + "\"");
    return *found;
  }

std::int64_t DocumentReader::integer(const nlohmann::json& value, const std::string& pointer, std::int64_t low, std::int64_t high) const {
    const bool whole = value.is_number_integer() && !(value.is_number_unsigned() && value.get<std::uint64_t>() >
                                                                                      static_cast<std::uint64_t>(high));
    if (!whole || value.get<std::int64_t>() < low || value.get<std::int64_t>() > high)
      fail(pointer, "expected a whole number from " + std::to_string(low) + " to " + std::to_string(high) +
                        ", found " + kind_of(value));
    return value.get<std::int64_t>();
  }

double DocumentReader::real(const nlohmann::json& value, const std::string& pointer) const {
    if (!value.is_number()) fail(pointer, "expected a number, found " + kind_of(value));
    return value.get<double>();
  }

const std::string& DocumentReader::text(const nlohmann::json& value, const std::string& pointer) const {
    if (!value.is_string()) fail(pointer, "expected a string, found " + kind_of(value));
    return value.get_ref<const std::string&>();
  }

ElementValue DocumentReader::element(const nlohmann::json& value, const std::string& pointer, DType type, bool& empty) const {
    empty = value.is_null();
    if (empty) return {!is_floating(type), 0, 0};
    if (value.is_string()) {
      const std::string& name = value.get_ref<const std::string&>();
      if (is_floating(type) && (name == "nan" || name == "inf" || name == "-inf"))
        return {false, name == "nan" ? std::nan("") : name == "inf" ? HUGE_VAL : -HUGE_VAL, 0};
    } else if (value.is_number()) {
      if (auto stored = number_as_element(value, type)) return *stored;
      fail(pointer, does_not_fit(value.dump(), type));
    }
    fail(pointer, std::string("expected a ") + std::string(dtype_name(type)) + " value" +
                      (is_floating(type) ? " (a number or \"nan\", \"inf\", \"-inf\")" : "") + " or null, found " +
                      kind_of(value));
  }

}  // namespace ringviz
