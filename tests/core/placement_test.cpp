// What a backend says about where its ranks live (core/engine/backend.h): the CPU backend
// keeps every rank in host memory, so every transfer is a copy in host memory.
#include <doctest/doctest.h>

#include "core/engine/backend.h"
#include "core/engine/session.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;

TEST_CASE("the CPU backend reports every rank in host memory and every transfer through it") {
  const Config config = ConfigBuilder().ranks(5).count(20);
  Session session(config, make_cpu_backend(1));
  const PlacementReport report = session.backend().placement();
  CHECK(report.devices.empty());
  CHECK(report.device_of_rank.empty());
  for (int src = 0; src < config.ranks; ++src)
    for (int dst = 0; dst < config.ranks; ++dst)
      CHECK(session.backend().route(src, dst) == TransferRoute::host_memory);
}

TEST_CASE("the CPU backend times rounds on the host clock, which stays out of the device times") {
  const Config config = ConfigBuilder().ranks(4).count(4096);
  Session session(config, make_cpu_backend(1));
  CHECK_FALSE(session.round_host_microseconds(0).has_value());
  session.seek(session.round_count());
  for (int round = 0; round < session.round_count(); ++round) {
    REQUIRE(session.round_host_microseconds(round).has_value());
    CHECK(*session.round_host_microseconds(round) >= 0.0);
    CHECK_FALSE(session.round_microseconds(round).has_value());
  }
  CHECK_FALSE(session.round_host_microseconds(session.round_count()).has_value());
}
