#pragma once
// Internal to gpu/: which rank's stream must wait for which other rank's work, inside one
// submission of rounds. Every rank has its own stream and records a `done` event after its
// part of a round; before a rank writes its slots in the next round it waits for
//   - the ranks it reads from (their slots must be final), and
//   - the ranks that read its own slots since it last wrote (they must be done reading
//     before it overwrites what they read).
// That is all the ordering a round needs, so streams run ahead of each other wherever the
// schedule allows. Pure bookkeeping: the caller records and waits for the CUDA events.
#include <span>
#include <vector>

namespace ringviz::gpu {

class StreamOrdering {
 public:
  // A submission starts with every stream idle: nothing recorded, nothing to wait for.
  void begin(int ranks);

  // Calls wait_for(other) for every rank whose recorded work `receiver` must wait for before
  // it writes this round, having `sources` to read from; forgets the readers it waited for.
  template <class WaitFor>
  void before_writing(int receiver, std::span<const int> sources, WaitFor&& wait_for) {
    for (int source : sources)
      if (must_wait(receiver, source)) wait_for(source);
    std::vector<int>& readers = readers_since_last_work_[static_cast<std::size_t>(receiver)];
    for (int reader : readers)
      if (must_wait(receiver, reader)) wait_for(reader);
    readers.clear();
  }

  // `receiver` recorded its done event after writing this round, having read `sources`.
  void after_writing(int receiver, std::span<const int> sources);

 private:
  bool must_wait(int receiver, int other) const {
    return other != receiver && done_recorded_[static_cast<std::size_t>(other)];
  }

  std::vector<bool> done_recorded_;
  std::vector<std::vector<int>> readers_since_last_work_;
};

}  // namespace ringviz::gpu
