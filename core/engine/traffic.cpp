#include "core/engine/traffic.h"

#include <set>
#include <tuple>

#include "core/schedule/pipeline.h"

namespace ringviz {

namespace {

std::int64_t sum_rounds(const std::vector<std::vector<std::int64_t>>& table, int rank, int rounds) {
  std::int64_t total = 0;
  for (int round = 0; round < rounds && round < static_cast<int>(table.size()); ++round)
    total += table[static_cast<std::size_t>(round)][static_cast<std::size_t>(rank)];
  return total;
}

}  // namespace

std::int64_t Traffic::sent_after(int rank, int rounds) const { return sum_rounds(sent, rank, rounds); }

std::int64_t Traffic::received_after(int rank, int rounds) const {
  return sum_rounds(received, rank, rounds);
}

Traffic compute_traffic(const Schedule& schedule, const SlotLayout& layout, DType dtype, int ranks) {
  Traffic traffic;
  const auto element = static_cast<std::int64_t>(dtype_size(dtype));
  const PipelineShape shape = pipeline_shape_of(schedule);
  // Through a switch, one piece a GPU sends to several GPUs crosses its link once (multicast),
  // and the parts the switch folds into one piece reach the receiver once, as the sum.
  using Piece = std::tuple<int, int, int, int, int>;  // rank, slot, channel, round, slice
  std::set<Piece> sent_pieces, received_pieces;
  auto first_time = [&](std::set<Piece>& seen, int rank, const Transfer& transfer) {
    if (!schedule.through_switch) return true;
    return seen.insert({rank, transfer.slot, transfer.step.channel, transfer.step.round, transfer.step.slice}).second;
  };
  for (const Round& round : schedule.rounds) {
    std::vector<std::int64_t> sent(static_cast<std::size_t>(ranks), 0);
    std::vector<std::int64_t> received(static_cast<std::size_t>(ranks), 0);
    sent_pieces.clear();
    received_pieces.clear();
    for (const Transfer& transfer : round.transfers) {
      const std::int64_t bytes = transfer_span(transfer, layout, shape).count * element;
      if (first_time(sent_pieces, transfer.src, transfer)) sent[static_cast<std::size_t>(transfer.src)] += bytes;
      if (first_time(received_pieces, transfer.dst, transfer)) received[static_cast<std::size_t>(transfer.dst)] += bytes;
    }
    traffic.sent.push_back(std::move(sent));
    traffic.received.push_back(std::move(received));
  }
  return traffic;
}

double ring_allreduce_bytes_per_gpu(int ranks, double bytes_per_gpu) {
  return 2.0 * ring_pass_bytes_per_gpu(ranks, bytes_per_gpu);
}

double ring_pass_bytes_per_gpu(int ranks, double bytes_per_gpu) {
  return ranks > 0 ? (ranks - 1) * bytes_per_gpu / ranks : 0.0;
}

}  // namespace ringviz
