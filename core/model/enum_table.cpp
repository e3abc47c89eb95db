#include "core/model/enum_table.h"

namespace ringviz {

namespace {

std::string join(const std::vector<std::string_view>& names, std::string_view last_separator) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? last_separator : ", ";
    text += names[i];
  }
  return text;
}

}  // namespace

std::string join_or(const std::vector<std::string_view>& names) { return join(names, " or "); }
std::string join_and(const std::vector<std::string_view>& names) { return join(names, " and "); }
std::string join_commas(const std::vector<std::string_view>& names) { return join(names, ", "); }

void reject_unknown_value(std::string_view field, std::string_view text,
                          const std::vector<std::string_view>& accepted) {
  throw InputError(std::string(field) + ": unknown value '" + std::string(text) + "' (expected " +
                   join_or(accepted) + ")");
}

}  // namespace ringviz
