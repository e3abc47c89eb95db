// The --init patterns of docs/architecture.md ("Collective semantics"), laid into each rank's
// working buffer.
#include <doctest/doctest.h>

#include <string>

#include "core/input/initial_values.h"
#include "core/model/checked_value.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

// Every element of one rank's working buffer, as printed numbers.
std::string rank_text(const BufferState& state, int rank) {
  std::string text;
  for (std::int64_t i = 0; i < state.elements_per_rank; ++i)
    text += (i ? " " : "") + std::to_string(static_cast<long long>(read_element(state, rank, i).real));
  return text;
}

Config config_with(Op op, InitKind kind) {
  return ConfigBuilder().op(op).ranks(3).count(4).init(kind);
}

TEST_CASE("init seed gives GPU r element i the value r*count + i + 1") {
  const BufferState state = make_initial_state(config_with(Op::allreduce, InitKind::seed));
  CHECK(rank_text(state, 0) == "1 2 3 4");
  CHECK(rank_text(state, 1) == "5 6 7 8");
  CHECK(rank_text(state, 2) == "9 10 11 12");
}

TEST_CASE("init rank and init index fill with r+1 and i") {
  const BufferState by_rank = make_initial_state(config_with(Op::reducescatter, InitKind::rank));
  CHECK(rank_text(by_rank, 2) == "3 3 3 3");
  const BufferState by_index = make_initial_state(config_with(Op::reducescatter, InitKind::index));
  CHECK(rank_text(by_index, 1) == "0 1 2 3");
}

TEST_CASE("AllGather puts rank r's input in block r and zeros elsewhere") {
  const BufferState state = make_initial_state(config_with(Op::allgather, InitKind::seed));
  CHECK(state.elements_per_rank == 12);
  CHECK(rank_text(state, 0) == "1 2 3 4 0 0 0 0 0 0 0 0");
  CHECK(rank_text(state, 1) == "0 0 0 0 5 6 7 8 0 0 0 0");
  CHECK(rank_text(state, 2) == "0 0 0 0 0 0 0 0 9 10 11 12");
}

TEST_CASE("init random is deterministic for a seed and differs between seeds and ranks") {
  Config config = config_with(Op::allreduce, InitKind::random);
  config.count = 64;
  config.init.random_seed = 7;
  for (DType dtype : kAllDTypes) {
    INFO(dtype_name(dtype));
    config.dtype = dtype;
    const BufferState first = make_initial_state(config);
    CHECK(first == make_initial_state(config));
    CHECK(first.ranks[0] != first.ranks[1]);
    Config other = config;
    other.init.random_seed = 8;
    CHECK(first != make_initial_state(other));
  }
  // The stream is addressable: element i of a seed does not depend on what came before.
  CHECK(splitmix64_at(7, 5) == splitmix64_at(7, 5));
  CHECK(splitmix64_at(7, 5) != splitmix64_at(7, 6));
  CHECK(splitmix64_at(7, 5) != splitmix64_at(8, 5));
}

TEST_CASE("Values are stored rounded to the element type, and a value an integer type cannot hold is refused") {
  Config config = ConfigBuilder(config_with(Op::allreduce, InitKind::values)).ranks(1).count(3);
  config.init.values = numbers_of_reals({{1.0 + 0x1.0p-11, 2.75, -7.9}});
  config.dtype = DType::f16;
  const BufferState halves = make_initial_state(config);
  CHECK(read_element(halves, 0, 0).real == 1.0);  // a tie, to the even neighbour
  CHECK(read_element(halves, 0, 1).real == 2.75);
  config.dtype = DType::i32;
  CHECK_THROWS_WITH_AS(make_initial_state(config),
                       "init: values: GPU 0, element 0: 1.00048828125 does not fit i32 (whole numbers from "
                       "-2147483648 to 2147483647)",
                       InputError);
  config.init.values = numbers_of_reals({{1, 2, -7}});
  CHECK(read_element(make_initial_state(config), 0, 2).integer == -7);
}

}  // namespace
}  // namespace ringviz
