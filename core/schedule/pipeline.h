#pragma once
// Slices and channels: how NCCL's ring streams instead of moving in lock-step rounds
// (docs/architecture.md, "Pipelined schedules"). Every slot is cut into C channel parts and
// each part into S slices; a "piece" is one slice of one channel of one slot. The source article's
// round t becomes steps (channel, round t, slice); piece k of round t + 1 may leave a GPU as
// soon as piece k of round t has arrived there, so the steps run in waves: wave w holds the
// steps whose round + slice = w, on every channel at once. With C = S = 1 a wave is a round.
//
// Each element stays in the slot it has with C = S = 1 and meets the same transfers in the
// same order, so every backend's results stay bit-identical to the lock-step schedule.
#include <algorithm>
#include <cstdint>

#include "core/model/layout.h"
#include "core/schedule/rounds.h"

namespace ringviz {

// Transfers a pipelined schedule may hold before --slices and --channels are refused: the
// schedule is data that every view and trace walks.
inline constexpr std::int64_t kMaxPipelinedTransfers = std::int64_t{1} << 22;

struct PipelineShape {
  int channels = 1;  // all channels: lanes x --channels
  int slices = 1;
  // Parts every slot is cut into first, each carried by channels/lanes channels: 1, or the
  // channels an algorithm's own rounds run on (the bidirectional ring's two directions).
  int lanes = 1;

  int pieces_per_slot() const { return channels * slices; }
  // One piece per slot: transfers move whole slots, and a backend's slots are the layout's.
  bool whole_slots() const { return channels == 1 && slices == 1; }
  // Whether --slices or --channels cut the algorithm's own rounds into waves. The lanes alone
  // (the bidirectional ring's two halves, one per direction) cut every slot in parts but still
  // move in the algorithm's own lock-step rounds, which every view and report tells as rounds.
  bool pipelined() const { return slices > 1 || channels > std::max(1, lanes); }
  // The lane a step's channel belongs to: lane b owns channels b·C .. b·C + C - 1.
  int lane_of(const PipelineStep& step) const { return step.channel / std::max(1, channels / std::max(1, lanes)); }
  // The piece index inside a slot: channel-major, so a channel's slices are contiguous.
  int piece_of(const PipelineStep& step) const { return step.channel * slices + step.slice; }
};

// Waves of steps from lock-step `rounds`: every transfer of round t becomes C·S transfers
// carrying (channel, t, slice), placed in wave t + slice. A wave's phase is that of its
// earliest round. With C = S = 1 the result equals `rounds` with each step's round filled in.
// Rounds that already use B channels (rounds.channels, each transfer's step.channel: the
// bidirectional ring's two directions) become B·C channels, channel b's parts b·C .. b·C + C - 1.
Schedule pipeline_schedule(const Schedule& rounds, PipelineShape shape);

// The shape a schedule's transfers are cut with.
inline PipelineShape pipeline_shape_of(const Schedule& schedule) {
  return {schedule.channels, schedule.slices, schedule.lanes};
}

// The rounds of the lock-step schedule a pipelined one was made from (wave count when
// lock-step): R, so the pipeline has R + S - 1 waves.
int lock_step_round_count(const Schedule& schedule);

// The elements one piece covers inside a rank's buffer. The slot's count is split into its
// lanes, each lane's part into its channels' parts, then each part into S slices, as evenly as
// possible with the first ones one element longer (the rule make_layout uses for slots); pieces
// may be empty.
Slot piece_span(const Slot& slot, PipelineShape shape, int piece);
// The elements a transfer moves: its whole slot when lock-step, else its piece.
Slot transfer_span(const Transfer& transfer, const SlotLayout& layout, PipelineShape shape);

// What a backend executes: one slot per piece (slot j, piece p becomes slot j·P + p), and the
// waves rewritten onto those slots. The buffer's elements stay where they were, so a backend
// loaded with the piece layout fetches the same buffer bytes. owned_slot keeps slot indices
// of the lock-step layout (outputs are cut out of the buffer with that layout).
SlotLayout piece_layout(const SlotLayout& layout, PipelineShape shape);

// How many of a pipelined run's pieces (N slots x C x S) cover no element. Such a piece holds
// nothing, its transfers move 0 B, and it never decides a cell's label or colour
// (docs/architecture.md, "Pipelined schedules", Empty pieces).
struct PieceFill {
  std::int64_t empty = 0;
  std::int64_t total = 0;
  // The smallest count at which no piece is empty: N x C x S for ReduceScatter and AllReduce
  // (the smallest slot is count / N elements), C x S for AllGather (every slot is `count`).
  // 0 for an uneven AllToAll, whose splits, not the count, size the blocks.
  std::int64_t count_to_fill = 0;
  bool any_empty() const { return empty > 0; }
  bool mostly_empty() const { return 2 * empty > total; }
};
PieceFill piece_fill(const Config& config, PipelineShape shape);
Schedule execution_schedule(const Schedule& waves);

}  // namespace ringviz
