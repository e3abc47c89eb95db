// The host-side logic of the CUDA backend's submission, which needs no GPU: which stream waits
// for which, where chunks of a slot begin, and error text built only on failure.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "gpu/device/cuda_check.h"
#include "gpu/backend/round_submitter.h"
#include "gpu/backend/stream_ordering.h"

namespace ringviz {
namespace {

TEST_SUITE("host") {
  TEST_CASE("a receiver waits for its senders' last work and for the ranks that read its slots since") {
    gpu::StreamOrdering ordering;
    ordering.begin(3);
    std::vector<int> waits;
    const auto record = [&](int other) { waits.push_back(other); };
    const std::vector<int> from_zero{0};
    const std::vector<int> from_one{1};

    // Round 1: rank 1 reads rank 0. Nothing was recorded yet, so nobody waits.
    ordering.before_writing(1, from_zero, record);
    CHECK(waits.empty());
    ordering.after_writing(1, from_zero);

    // Round 2: rank 0 reads rank 1 (which recorded work) and rank 1 read rank 0's slots since
    // rank 0 last wrote: rank 0 waits for rank 1 on both counts.
    ordering.before_writing(0, from_one, record);
    CHECK(waits == std::vector<int>{1, 1});
    ordering.after_writing(0, from_one);

    // Round 3: rank 2 reads rank 0; rank 0 recorded work, and nobody read rank 2's slots.
    waits.clear();
    ordering.before_writing(2, from_zero, record);
    CHECK(waits == std::vector<int>{0});

    // Rank 0's readers were forgotten once it waited for them.
    waits.clear();
    const std::vector<int> none;
    ordering.before_writing(0, none, record);
    CHECK(waits.empty());
  }

  TEST_CASE("a rank never waits for its own stream") {
    gpu::StreamOrdering ordering;
    ordering.begin(2);
    const std::vector<int> itself{0};
    ordering.after_writing(0, itself);
    std::vector<int> waits;
    ordering.before_writing(0, itself, [&](int other) { waits.push_back(other); });
    CHECK(waits.empty());
  }

  TEST_CASE("chunks of a slot start on multiples of 64 elements and cover it exactly") {
    for (std::int64_t count : {0, 1, 63, 64, 1000, 4096, 100003})
      for (int chunks : {1, 2, 3, 8, 64}) {
        INFO(count << " elements in " << chunks << " chunks");
        CHECK(gpu::chunk_boundary(count, 0, chunks) == 0);
        CHECK(gpu::chunk_boundary(count, chunks, chunks) == count);
        for (int chunk = 1; chunk < chunks; ++chunk) {
          const std::int64_t boundary = gpu::chunk_boundary(count, chunk, chunks);
          CHECK(boundary % 64 == 0);
          CHECK(boundary >= gpu::chunk_boundary(count, chunk - 1, chunks));
          CHECK(boundary <= count);
        }
      }
  }

  TEST_CASE("check_cuda builds its message only when the call failed") {
    int built = 0;
    const auto describe = [&] {
      ++built;
      return std::string("copy from rank 1 to rank 2, slot 3");
    };
    gpu::check_cuda(cudaSuccess, describe);
    CHECK(built == 0);
    std::string message;
    try {
      gpu::check_cuda(cudaErrorInvalidValue, describe);
    } catch (const gpu::CudaError& error) {
      message = error.what();
    }
    CHECK(built == 1);
    CHECK(message.find("CUDA: copy from rank 1 to rank 2, slot 3: ") == 0);
  }
}

}  // namespace
}  // namespace ringviz
