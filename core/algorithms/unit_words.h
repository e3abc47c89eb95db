#pragma once
// What the algorithms' units share to write their words: printf-style filling, sizes in
// binary units, lists of GPUs, the shape of a round, and the formula of a pass that sends
// (N-1)/N of the buffer (the rings, direct and rhd).
#include <span>
#include <string>
#include <vector>

#include "core/algorithms/algorithm_unit.h"

namespace ringviz {

// The words the helpers below write with, for the GUI's font atlas.
std::span<const Words> shared_unit_words();

// `pattern` filled printf-style. Patterns are the units' own literals, never user input.
std::string formatted(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
// "96 B", "1.5 KiB", "2.0 MiB", "1.25 GiB": sizes as the GUI prints them.
std::string format_binary_bytes(double bytes);
// "GPU 0", "GPU 0 and GPU 2", "GPU 0, GPU 2 and GPU 4"; a long list keeps its first two and its
// last with "..." between.
std::string gpu_list(Language language, const std::vector<int>& gpus);

// What one round does, read off its transfers.
struct RoundShape {
  const Transfer* first = nullptr;  // the example a caption names
  bool reduces = false;
  int senders = 0;
  int receivers = 0;
  int most_slots_per_message = 0;  // slots one GPU sends one other GPU
  int most_messages = 0;           // messages one GPU sends
  int distance = 0;                // |src - dst| when every transfer has the same one, else 0
  std::vector<int> sending_gpus;   // ascending
  std::vector<int> receiving_gpus;
};
RoundShape shape_of(const Round& round);
// How many of a schedule's rounds reduce (the reduce-scatter phase's).
int reduce_round_count(const Schedule& schedule);

// Bytes per GPU of one pass that sends (N-1)/N of an M-byte buffer, and of an AllReduce (two).
double pass_bytes_per_gpu(int ranks, double buffer_bytes);
// "<subject> sends, per GPU:  (N-1)/N x M" (2(N-1)/N for AllReduce) with this run's numbers.
TrafficFormula pass_traffic_formula(Language language, Op op, int ranks, int root, double buffer_bytes,
                                    const std::string& subject);

}  // namespace ringviz
