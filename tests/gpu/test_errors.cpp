// Environment failures are errors with one clear message, never crashes.
#include <doctest/doctest.h>

#include <string>

#include "core/input/initial_values.h"
#include "core/engine/session.h"
#include "gpu/backend/cuda_backend.h"
#include "tests/gpu/compare.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

TEST_CASE("asking for more memory than the GPU has is a clear error, and the backend stays usable") {
  gpu::CudaBackend backend;
  const gpu::DeviceInfo device = backend.devices().front();
  // One rank (on the first GPU) whose buffer is larger than the whole GPU.
  CollectiveShape huge;
  huge.dtype = DType::f64;
  huge.ranks = 1;
  huge.layout = make_layout(Op::allreduce, 1, static_cast<std::int64_t>(device.total_bytes / 8) + (1 << 20));
  std::string message;
  try {
    backend.allocate(huge);
  } catch (const gpu::CudaError& error) {
    message = error.what();
  }
  INFO(message);
  CHECK(message.find("out of memory") != std::string::npos);
  CHECK(message.find(device.name) != std::string::npos);
  CHECK(message.find("--count") != std::string::npos);

  // Nothing was left half-allocated: a small collective on the same backend still runs right.
  const Config config = ConfigBuilder().ranks(3).count(1001).init(InitKind::random);
  const CollectiveShape shape{config.dtype, config.reduce, config.ranks, make_layout(config)};
  Session cpu(config, make_cpu_backend(1));
  cpu.seek(cpu.round_count());
  backend.load(shape, make_initial_state(config));
  for (const Round& round : cpu.schedule().rounds) backend.execute(round);
  BufferState result;
  backend.fetch(result);
  CHECK(test::first_difference(cpu.buffers(), result) == "");
}

TEST_CASE("a backend that was never loaded refuses work with a message instead of crashing") {
  gpu::CudaBackend backend;
  BufferState state;
  CHECK_THROWS_AS(backend.fetch(state), gpu::CudaError);
  CHECK_THROWS_AS(backend.execute(Round{}), gpu::CudaError);
  CHECK_FALSE(backend.last_round_microseconds().has_value());
}

TEST_CASE("asking for a GPU that does not exist names it") {
  gpu::CudaBackendOptions options;
  options.devices = {4096};
  try {
    gpu::CudaBackend backend(options);
    FAIL("no error");
  } catch (const gpu::CudaError& error) {
    CHECK(std::string(error.what()).find("4096") != std::string::npos);
  }
}

}  // namespace
}  // namespace ringviz
