#include "core/engine/thread_pool.h"

#include <system_error>
#include <utility>

namespace ringviz {

ThreadPool::ThreadPool(unsigned threads) {
  try {
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
  } catch (const std::system_error&) {
    // Out of threads (a process limit, or memory for the stack): the caller works anyway.
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void ThreadPool::drain() {
  std::unique_lock lock(mutex_);
  while (next_ < count_) {
    const std::size_t index = next_++;
    lock.unlock();
    // An exception must not leave a worker thread (std::terminate) nor the caller while
    // workers still run its task: keep the first, skip what is left, report it at the end.
    try {
      (*task_)(index);
    } catch (...) {
      lock.lock();
      if (!failure_) failure_ = std::current_exception();
      finished_ += count_ - next_;
      next_ = count_;
      lock.unlock();
    }
    lock.lock();
    if (++finished_ == count_) done_.notify_all();
  }
}

void ThreadPool::worker_loop() {
  std::size_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    drain();
  }
}

void ThreadPool::parallel_for(std::size_t count, const std::function<void(std::size_t)>& task) {
  if (count == 0) return;
  if (workers_.empty() || count == 1) {
    for (std::size_t i = 0; i < count; ++i) task(i);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    task_ = &task;
    next_ = 0;
    count_ = count;
    finished_ = 0;
    ++generation_;
  }
  wake_.notify_all();
  drain();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return finished_ == count_; });
  task_ = nullptr;
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

}  // namespace ringviz
