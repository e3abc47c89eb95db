// One table per enum (core/model/enum_table.h): names, aliases, --help choice lists and error
// messages all come from it, for every enum of core.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/engine/benchmark.h"
#include "core/model/config.h"
#include "core/model/enum_table.h"
#include "core/teaching/lesson.h"
#include "core/training/memory_model.h"
#include "core/model/text.h"
#include "core/trace/trace_format.h"
#include "core/training/training_run.h"
#include "core/training/training_timeline.h"

using namespace ringviz;

namespace {

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    out.push_back(text.substr(0, space));
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  }
  return out;
}

// The names a --help choice list offers: "a (what a is) | b" -> {"a", "b"}.
std::vector<std::string> offered(const std::string& help) {
  std::vector<std::string> names;
  for (std::size_t at = 0; at <= help.size();) {
    std::size_t end = help.find(" | ", at);
    if (end == std::string::npos) end = help.size();
    const std::string choice = help.substr(at, end - at);
    names.push_back(choice.substr(0, choice.find(" (")));
    at = end + 3;
  }
  return names;
}

// Every check that holds for any table, run on one.
template <class Table, class E = enum_of_table<Table>>
void check_table(const Table& table) {
  CHECK(spellings_are_unique(table));
  std::vector<std::string> names;
  for (const EnumName<E>& entry : table) {
    CAPTURE(entry.name);
    CHECK(find_enum(table, entry.name) == entry.value);
    CHECK(enum_name(table, entry.value) == entry.name);
    for (std::string_view alias : words(entry.aliases)) CHECK(find_enum(table, alias) == entry.value);
    names.emplace_back(entry.name);
  }
  CHECK(offered(choice_help(table)) == names);
  CHECK(!find_enum(table, "no-such-value"));
  CHECK(!find_enum(table, ""));
}

}  // namespace

TEST_CASE("every table parses each value by its name and by each alias, and names it back") {
  check_table(kOpNames);
  check_table(algorithm_name_table());
  check_table(kOrderNames);
  check_table(kBackendChoiceNames);
  check_table(kDTypeNames);
  check_table(kReduceOpNames);
  check_table(kLanguageNames);
  check_table(kViewNames);
  check_table(kStrategyNames);
  check_table(kConventionNames);
  check_table(kStateComponentNames);
  check_table(kByteUnitNames);
  check_table(kTrainStrategyNames);
  check_table(kBenchModeNames);
  check_table(kTraceFormatNames);
  check_table(kPeakComponentNames);
}

TEST_CASE("an unknown value is rejected naming the field and the values it could have been") {
  CHECK_THROWS_WITH_AS(parse_op("allscatter", "--op"),
                       "--op: unknown value 'allscatter' (expected allgather, reducescatter, allreduce, broadcast, alltoall or sendrecv)",
                       InputError);
  CHECK_THROWS_WITH_AS(parse_dtype_or_throw("f8", "--dtype"),
                       "--dtype: unknown value 'f8' (expected f32, f64, f16, bf16, i32 or i64)", InputError);
  CHECK_THROWS_WITH_AS(parse_strategy("zero4", "strategies"),
                       "strategies: unknown value 'zero4' (expected ddp, zero1, zero2 or zero3)", InputError);
  CHECK_THROWS_WITH_AS(parse_trace_format("yaml"),
                       "format: unknown value 'yaml' (expected table, markdown, json or chrome)", InputError);
  CHECK_THROWS_WITH_AS(parse_language("fr", "--lang"), "--lang: unknown value 'fr' (expected en or zh)",
                       InputError);
  CHECK_THROWS_WITH_AS(parse_init("ones", "--init"),
                       "--init: unknown value 'ones' (expected seed, rank, index, random:SEED or file:PATH)",
                       InputError);
}

TEST_CASE("every enum value has a name, and the tables list their enum's values in order") {
  for (Algorithm algorithm : kAllAlgorithms) CHECK(algorithm_name(algorithm) != "?");
  for (DType dtype : kAllDTypes) CHECK(dtype_name(dtype) != "?");
  for (ReduceOp op : kAllReduceOps) CHECK(reduce_op_name(op) != "?");
  for (View view : kAllViews) CHECK(view_name(view) != "?");
  for (Strategy strategy : kAllStrategies) CHECK(strategy_title(strategy) != "?");
  for (StateComponent component : kAllStateComponents) CHECK(component_name(component) != "?");
  for (TrainStrategy strategy : kAllTrainStrategies) CHECK(train_strategy_name(strategy) != "?");
  CHECK(lists_exactly(kDTypeNames, kAllDTypes));
  CHECK(lists_exactly(kViewNames, kAllViews));
  CHECK(!lists_exactly(kReduceOpNames, {ReduceOp::sum, ReduceOp::prod}));
}

TEST_CASE("a table whose spellings overlap is caught") {
  enum class Pet { cat, dog };
  constexpr EnumName<Pet> same_alias[] = {{Pet::cat, "cat", "kitty"}, {Pet::dog, "dog", "kitty"}};
  constexpr EnumName<Pet> alias_is_a_name[] = {{Pet::cat, "cat"}, {Pet::dog, "dog", "cat"}};
  constexpr EnumName<Pet> alias_twice[] = {{Pet::cat, "cat", "kitty kitty"}, {Pet::dog, "dog"}};
  constexpr EnumName<Pet> distinct[] = {{Pet::cat, "cat", "kitty moggy"}, {Pet::dog, "dog", "pup"}};
  static_assert(!spellings_are_unique(same_alias));
  static_assert(!spellings_are_unique(alias_is_a_name));
  static_assert(!spellings_are_unique(alias_twice));
  static_assert(spellings_are_unique(distinct));
  CHECK(choice_help(kByteUnitNames) == "gb (10^9 bytes) | gib (2^30 bytes) | bytes");
  CHECK(enum_title(kStrategyNames, Strategy::zero1) == "ZeRO-1");
  CHECK(enum_title(kOpNames, Op::reducescatter) == "ReduceScatter");
  CHECK(enum_title(kDTypeNames, DType::bf16) == "bf16");  // no title: the name
}

TEST_CASE("the --init help lists every pattern parse_init reads") {
  for (const EnumName<InitKind>& entry : kTypedInitNames) {
    std::string example(entry.name);
    if (const std::size_t colon = example.find(':'); colon != std::string::npos)
      example = example.substr(0, colon + 1) + (entry.value == InitKind::random ? "7" : "in.json");
    CAPTURE(example);
    CHECK(parse_init(example).kind == entry.value);
    CHECK(parse_init(example).spec() == example);
  }
}

TEST_CASE("lists join as a sentence") {
  CHECK(join_or({"a"}) == "a");
  CHECK(join_or({"a", "b"}) == "a or b");
  CHECK(join_or({"a", "b", "c"}) == "a, b or c");
  CHECK(join_and({"a", "b", "c"}) == "a, b and c");
  CHECK(join_commas({"a", "b", "c"}) == "a, b, c");
  CHECK(join_or({}).empty());
}
