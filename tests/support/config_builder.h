#pragma once
// The one way tests write a collective's Config: start from Config's own defaults (AllReduce,
// ring, seed order, 4 GPUs, 8 elements, f32, sum, init seed, 1 channel, 1 slice, root 0) and name only
// what the test is about:
//   const Config config = ConfigBuilder().op(Op::allgather).ranks(3).count(9);
// Each call returns a new builder, so a shared start can be kept and varied:
//   const ConfigBuilder small = ConfigBuilder().ranks(3).count(6);
//   check(small.op(Op::allgather)); check(small.op(Op::reducescatter));
// When Config gains or moves a field, this header is the one place tests change.
#include <cstdint>
#include <string_view>
#include <utility>

#include "core/model/config.h"

namespace ringviz::test {

class ConfigBuilder {
 public:
  ConfigBuilder() = default;
  // Varies an existing config (one read from a file, a fixture's base).
  explicit ConfigBuilder(Config start) : config_(std::move(start)) {}

  ConfigBuilder op(Op value) const { return with([&](Config& c) { c.op = value; }); }
  ConfigBuilder algorithm(Algorithm value) const { return with([&](Config& c) { c.algorithm = value; }); }
  ConfigBuilder order(Order value) const { return with([&](Config& c) { c.order = value; }); }
  ConfigBuilder ranks(int value) const { return with([&](Config& c) { c.ranks = value; }); }
  ConfigBuilder count(std::int64_t value) const { return with([&](Config& c) { c.count = value; }); }
  ConfigBuilder dtype(DType value) const { return with([&](Config& c) { c.dtype = value; }); }
  ConfigBuilder reduce(ReduceOp value) const { return with([&](Config& c) { c.reduce = value; }); }
  ConfigBuilder channels(int value) const { return with([&](Config& c) { c.channels = value; }); }
  ConfigBuilder slices(int value) const { return with([&](Config& c) { c.slices = value; }); }
  ConfigBuilder root(int value) const { return with([&](Config& c) { c.root = value; }); }
  ConfigBuilder splits(std::vector<std::int64_t> value) const {
    return with([&](Config& c) { c.splits = std::move(value); });
  }
  ConfigBuilder init(InitPattern value) const { return with([&](Config& c) { c.init = std::move(value); }); }
  // As typed after --init ("seed", "random:7", "file:x.json"), read by the product's parser.
  ConfigBuilder init(std::string_view spec) const { return init(parse_init(spec)); }
  ConfigBuilder init(InitKind kind) const { return with([&](Config& c) { c.init.kind = kind; }); }
  ConfigBuilder random_init(std::uint64_t seed) const {
    return with([&](Config& c) {
      c.init.kind = InitKind::random;
      c.init.random_seed = seed;
    });
  }

  const Config& build() const { return config_; }
  operator Config() const { return config_; }  // NOLINT: passed straight to what takes a Config

 private:
  template <class Change>
  ConfigBuilder with(Change change) const {
    ConfigBuilder next = *this;
    change(next.config_);
    return next;
  }

  Config config_;
};

}  // namespace ringviz::test
