#pragma once
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ringviz {

// A fixed set of worker threads that run one parallel_for at a time. The calling thread
// works too, so a pool of one thread runs everything inline.
class ThreadPool {
 public:
  // Starts threads - 1 workers; where the system refuses a thread, the pool runs with those
  // it got (results never depend on the thread count).
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Calls task(i) for every i in [0, count), spread over the threads; returns when all are
  // done. Tasks are claimed in order, so neighbouring indices tend to run close in time. The
  // first exception a task throws, on any thread, is rethrown here once every task has
  // finished; the tasks not yet started are skipped.
  void parallel_for(std::size_t count, const std::function<void(std::size_t)>& task);

 private:
  void worker_loop();
  void drain();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t next_ = 0;
  std::size_t count_ = 0;
  std::size_t finished_ = 0;
  std::size_t generation_ = 0;
  bool stopping_ = false;
  std::exception_ptr failure_;  // the first task's exception in this parallel_for
};

}  // namespace ringviz
