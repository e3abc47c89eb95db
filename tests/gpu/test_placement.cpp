// The CUDA backend's placement report (core/engine/backend.h): the devices it uses with their
// memory, the device of each rank, and each transfer's route in core's terms.
#include <doctest/doctest.h>

#include "core/engine/session.h"
#include "gpu/backend/cuda_backend.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

TEST_CASE("the CUDA backend reports its devices, its own memory there and every rank's device") {
  const Config config = ConfigBuilder().ranks(6).count(1 << 20);
  Session session(config, gpu::make_cuda_backend());
  auto& backend = static_cast<gpu::CudaBackend&>(session.backend());
  const PlacementReport report = backend.placement();
  REQUIRE(report.devices.size() == backend.devices().size());
  std::uint64_t ringviz_bytes = 0;
  for (const DeviceDescription& device : report.devices) {
    INFO("GPU " << device.index << " " << device.name);
    CHECK_FALSE(device.name.empty());
    CHECK(device.bytes_total > 0);
    CHECK(device.bytes_used_all <= device.bytes_total);
    CHECK(device.bytes_used_by_ringviz <= device.bytes_used_all);
    CHECK(device.bytes_used_by_ringviz == backend.allocated_bytes(device.index));
    ringviz_bytes += device.bytes_used_by_ringviz;
  }
  CHECK(ringviz_bytes >= std::uint64_t{6} << 22);  // six buffers of 2^20 floats at least
  REQUIRE(report.device_of_rank.size() == 6u);
  for (int rank = 0; rank < 6; ++rank) CHECK(report.device_of_rank[static_cast<std::size_t>(rank)] == backend.device_of_rank(rank));
  for (int src = 0; src < 6; ++src)
    for (int dst = 0; dst < 6; ++dst) {
      const TransferRoute route = backend.route(src, dst);
      switch (backend.link(src, dst)) {
        case gpu::LinkKind::same_device: CHECK(route == TransferRoute::same_device); break;
        case gpu::LinkKind::peer_to_peer: CHECK(route == TransferRoute::peer_to_peer); break;
        case gpu::LinkKind::staged_through_host: CHECK(route == TransferRoute::through_host); break;
      }
      CHECK((route == TransferRoute::same_device) == (report.device_of_rank[static_cast<std::size_t>(src)] ==
                                                      report.device_of_rank[static_cast<std::size_t>(dst)]));
    }
}

}  // namespace
}  // namespace ringviz
