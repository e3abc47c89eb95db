// A task that throws must reach the caller of parallel_for, from whichever thread ran it,
// instead of ending the process in std::terminate.
#include <doctest/doctest.h>

#include <atomic>
#include <new>
#include <stdexcept>

#include "core/engine/thread_pool.h"

using ringviz::ThreadPool;

TEST_CASE("an exception thrown by a task on a worker thread comes back from parallel_for") {
  ThreadPool pool(4);
  std::atomic<int> ran{0};
  CHECK_THROWS_AS(pool.parallel_for(64,
                                    [&](std::size_t i) {
                                      ++ran;
                                      if (i % 7 == 3) throw std::bad_alloc();
                                    }),
                  std::bad_alloc);
  CHECK(ran.load() >= 1);
  CHECK(ran.load() <= 64);
}

TEST_CASE("a pool whose task threw runs the next parallel_for in full") {
  ThreadPool pool(3);
  CHECK_THROWS_AS(pool.parallel_for(10, [](std::size_t) { throw std::runtime_error("task failed"); }),
                  std::runtime_error);
  std::atomic<int> ran{0};
  pool.parallel_for(100, [&](std::size_t) { ++ran; });
  CHECK(ran.load() == 100);
}
