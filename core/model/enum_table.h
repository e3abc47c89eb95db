#pragma once
// One table per enum, declared next to the enum: the name ringviz prints and reads, the other
// spellings it also reads, a few words for --help and, where prose shows the value differently,
// its title. Parsers, printed names, --help choice lists, error messages and lesson validation
// all read that one table, so they cannot drift apart.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/model/input_error.h"

namespace ringviz {

template <class E>
struct EnumName {
  E value;
  std::string_view name;          // printed, and read
  std::string_view aliases = "";  // also read: other spellings, separated by single spaces
  std::string_view help = "";     // shown by --help after the name, in parentheses
  std::string_view title = "";    // how tables and prose show the value, when not by `name`
};

// How many of the space-separated words of `words` are `text`.
constexpr int count_word(std::string_view words, std::string_view text) {
  int count = 0;
  while (!words.empty()) {
    const std::size_t space = words.find(' ');
    count += words.substr(0, space) == text ? 1 : 0;
    if (space == std::string_view::npos) break;
    words.remove_prefix(space + 1);
  }
  return count;
}

// The enum a table of EnumName lists: tables are constexpr arrays, or spans of a table built at
// run time (the algorithms', core/algorithms/registry.h).
template <class Table>
using enum_of_table = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<const Table&>()[0].value)>>;

template <class Table, class E = enum_of_table<Table>>
constexpr std::optional<E> find_enum(const Table& table, std::string_view text) {
  for (const EnumName<E>& entry : table)
    if (entry.name == text || count_word(entry.aliases, text) > 0) return entry.value;
  return std::nullopt;
}

template <class Table, class E = enum_of_table<Table>>
constexpr std::string_view enum_name(const Table& table, E value) {
  for (const EnumName<E>& entry : table)
    if (entry.value == value) return entry.name;
  return "?";
}

template <class Table, class E = enum_of_table<Table>>
constexpr std::string_view enum_title(const Table& table, E value) {
  for (const EnumName<E>& entry : table)
    if (entry.value == value) return entry.title.empty() ? entry.name : entry.title;
  return "?";
}

template <class Table, class E = enum_of_table<Table>>
std::vector<std::string_view> enum_names(const Table& table) {
  std::vector<std::string_view> names;
  for (const EnumName<E>& entry : table) names.push_back(entry.name);
  return names;
}

// "a", "a or b", "a, b or c": the accepted values as an error message lists them.
std::string join_or(const std::vector<std::string_view>& names);
// "a", "a and b", "a, b and c".
std::string join_and(const std::vector<std::string_view>& names);
// "a, b, c".
std::string join_commas(const std::vector<std::string_view>& names);

// The --help text of a choice: "a (what a is) | b | c".
template <class Table, class E = enum_of_table<Table>>
std::string choice_help(const Table& table) {
  std::string text;
  for (const EnumName<E>& entry : table) {
    text += text.empty() ? "" : " | ";
    text += entry.name;
    if (!entry.help.empty()) text += " (" + std::string(entry.help) + ")";
  }
  return text;
}

// Throws InputError("<field>: unknown value '<text>' (expected a, b or c)").
[[noreturn]] void reject_unknown_value(std::string_view field, std::string_view text,
                                       const std::vector<std::string_view>& accepted);

template <class Table, class E = enum_of_table<Table>>
E parse_enum(const Table& table, std::string_view text, std::string_view field) {
  if (const std::optional<E> value = find_enum(table, text)) return *value;
  reject_unknown_value(field, text, enum_names(table));
}

// Whether `text` names a value of `table`; if so the value goes to `out`, which otherwise keeps
// what it had (for settings files, where a bad name keeps the default).
template <class Table, class E = enum_of_table<Table>>
constexpr bool find_enum(const Table& table, std::string_view text, E& out) {
  const std::optional<E> value = find_enum(table, text);
  if (value) out = *value;
  return value.has_value();
}

// The functions each enum used to spell out by hand, made from its table and declared next to
// it, e.g.
//   inline constexpr EnumNamer order_name{kOrderNames};             order_name(Order::nccl)
//   inline constexpr EnumParser parse_order{kOrderNames, "order"};  parse_order(text[, field])
//   inline constexpr EnumFinder parse_dtype{kDTypeNames};           parse_dtype(text): optional
template <class E, std::size_t N>
class EnumNamer {
 public:
  // `titles`: name each value by its title (the name where it has none).
  constexpr explicit EnumNamer(const EnumName<E> (&table)[N], bool titles = false)
      : table_(table), titles_(titles) {}
  constexpr std::string_view operator()(E value) const {
    return titles_ ? enum_title(table_, value) : enum_name(table_, value);
  }

 private:
  const EnumName<E> (&table_)[N];
  bool titles_;
};

// Throws InputError naming the field: `default_field` unless the call names another.
template <class E, std::size_t N>
class EnumParser {
 public:
  constexpr EnumParser(const EnumName<E> (&table)[N], std::string_view default_field)
      : table_(table), default_field_(default_field) {}
  E operator()(std::string_view text) const { return parse_enum(table_, text, default_field_); }
  E operator()(std::string_view text, std::string_view field) const { return parse_enum(table_, text, field); }

 private:
  const EnumName<E> (&table_)[N];
  std::string_view default_field_;
};

template <class E, std::size_t N>
class EnumFinder {
 public:
  constexpr explicit EnumFinder(const EnumName<E> (&table)[N]) : table_(table) {}
  constexpr std::optional<E> operator()(std::string_view text) const { return find_enum(table_, text); }

 private:
  const EnumName<E> (&table_)[N];
};

// Every spelling, name or alias, belongs to one entry and stands there once: no text can mean
// two values. The tables check this with static_assert.
template <class Table, class E = enum_of_table<Table>>
constexpr bool spellings_are_unique(const Table& table) {
  const auto uses = [&](std::string_view text) {
    int count = 0;
    for (const EnumName<E>& entry : table)
      count += (entry.name == text ? 1 : 0) + count_word(entry.aliases, text);
    return count;
  };
  for (const EnumName<E>& entry : table) {
    if (entry.name.empty() || uses(entry.name) != 1) return false;
    for (std::string_view words = entry.aliases; !words.empty();) {
      const std::size_t space = words.find(' ');
      if (uses(words.substr(0, space)) != 1) return false;
      words = space == std::string_view::npos ? std::string_view() : words.substr(space + 1);
    }
  }
  return true;
}

// Whether the table lists exactly `values`, in that order (for enums that also keep a plain
// array of their values for loops and combo boxes).
template <class E, std::size_t N, std::size_t M>
constexpr bool lists_exactly(const EnumName<E> (&table)[N], const E (&values)[M]) {
  if (N != M) return false;
  for (std::size_t i = 0; i < N; ++i)
    if (table[i].value != values[i]) return false;
  return true;
}

}  // namespace ringviz
