#pragma once
#include <cstdint>
#include <vector>

#include "core/schedule/rounds.h"
#include "core/model/layout.h"

namespace ringviz {

// Bytes each rank sends and receives in every round (every wave of a pipelined schedule), from
// the schedule and the sizes of the slots or pieces its transfers move.
struct Traffic {
  std::vector<std::vector<std::int64_t>> sent;      // [round][rank]
  std::vector<std::vector<std::int64_t>> received;  // [round][rank]

  // Totals over rounds [0, rounds) — i.e. after `rounds` rounds have run.
  std::int64_t sent_after(int rank, int rounds) const;
  std::int64_t received_after(int rank, int rounds) const;
  std::int64_t total_sent(int rank) const { return sent_after(rank, static_cast<int>(sent.size())); }
  std::int64_t total_received(int rank) const {
    return received_after(rank, static_cast<int>(received.size()));
  }
};

Traffic compute_traffic(const Schedule& schedule, const SlotLayout& layout, DType dtype, int ranks);

// The source article's formula: a ring AllReduce of M bytes per GPU over N GPUs sends
// 2 (N - 1) / N x M bytes from each GPU (exact when N divides M).
double ring_allreduce_bytes_per_gpu(int ranks, double bytes_per_gpu);
// One ring pass (ReduceScatter or AllGather of an M-byte buffer): (N - 1) / N x M.
double ring_pass_bytes_per_gpu(int ranks, double bytes_per_gpu);

}  // namespace ringviz
