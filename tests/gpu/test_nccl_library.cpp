// The NCCL loader (gpu/nccl/nccl_library.h): our own declarations of NCCL's C API, checked
// against nccl.h wherever the toolkit ships it, and libnccl opened at run time. No GPU needed.
#include <doctest/doctest.h>

#include <string>

#include "gpu/nccl/nccl_library.h"

#if __has_include(<nccl.h>)
#include <nccl.h>
#define RINGVIZ_TEST_HAS_NCCL_HEADER 1
#endif

namespace ringviz::gpu {
namespace {

#ifdef RINGVIZ_TEST_HAS_NCCL_HEADER
// The declarations stand in for nccl.h at the ABI level: same sizes, same enum values.
static_assert(sizeof(nccl::UniqueId) == sizeof(ncclUniqueId));
static_assert(nccl::kSuccess == ncclSuccess);
static_assert(static_cast<int>(nccl::DataType::uint8) == ncclUint8);
static_assert(static_cast<int>(nccl::DataType::int32) == ncclInt32);
static_assert(static_cast<int>(nccl::DataType::int64) == ncclInt64);
static_assert(static_cast<int>(nccl::DataType::float16) == ncclFloat16);
static_assert(static_cast<int>(nccl::DataType::float32) == ncclFloat32);
static_assert(static_cast<int>(nccl::DataType::float64) == ncclFloat64);
static_assert(static_cast<int>(nccl::DataType::bfloat16) == ncclBfloat16);
static_assert(static_cast<int>(nccl::RedOp::sum) == ncclSum);
static_assert(static_cast<int>(nccl::RedOp::prod) == ncclProd);
static_assert(static_cast<int>(nccl::RedOp::max) == ncclMax);
static_assert(static_cast<int>(nccl::RedOp::min) == ncclMin);
static_assert(static_cast<int>(nccl::RedOp::avg) == ncclAvg);
static_assert(sizeof(nccl::Result) == sizeof(ncclResult_t));
#endif

TEST_SUITE("host") {
  TEST_CASE("libnccl either loads with every entry point or says libnccl.so.2 was not found") {
    const nccl::Library& api = nccl::library();
    if (api.error.empty()) {
      CHECK(static_cast<bool>(api.all_gather));
      CHECK(nccl::version_text().rfind("NCCL 2.", 0) == 0);
    } else {
      CHECK(api.error.rfind("libnccl.so.2 ", 0) == 0);
      CHECK(nccl::version_text().empty());
    }
  }

  TEST_CASE("NCCL's own collectives get one rank's buffers as the collective semantics size them") {
    const nccl::CollectiveCounts all_reduce = nccl::collective_counts(Op::allreduce, 10, 4);
    CHECK(all_reduce.send == 10);
    CHECK(all_reduce.receive == 10);
    CHECK(all_reduce.call == 10);
    // 10 elements over 4 ranks: NCCL has no uneven chunks, so 2 each and 2 left out.
    const nccl::CollectiveCounts reduce_scatter = nccl::collective_counts(Op::reducescatter, 10, 4);
    CHECK(reduce_scatter.send == 8);
    CHECK(reduce_scatter.receive == 2);
    CHECK(reduce_scatter.call == 2);
    const nccl::CollectiveCounts all_gather = nccl::collective_counts(Op::allgather, 10, 4);
    CHECK(all_gather.send == 10);
    CHECK(all_gather.receive == 40);
    CHECK(all_gather.call == 10);
  }
}

}  // namespace
}  // namespace ringviz::gpu
