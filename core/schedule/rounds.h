#pragma once
// What a schedule is made of: rounds of transfers that happen at once. The algorithms' units
// (core/algorithms/) build them and the code that walks rounds reads them, without seeing how
// the registry chooses among the algorithms.
#include <string_view>
#include <vector>

#include "core/model/enum_table.h"

namespace ringviz {

// Every phase but reduce_scatter only copies.
enum class Phase { reduce_scatter, all_gather, broadcast, all_to_all };
// copy: the receiver stores the incoming slot. reduce: it stores incoming (+) local.
enum class TransferKind { copy, reduce };

inline constexpr EnumName<Phase> kPhaseNames[] = {{Phase::reduce_scatter, "reduce-scatter"},
                                                  {Phase::all_gather, "all-gather"},
                                                  {Phase::broadcast, "broadcast"},
                                                  {Phase::all_to_all, "all-to-all"}};
inline constexpr EnumNamer phase_name{kPhaseNames};
inline constexpr EnumName<TransferKind> kTransferKindNames[] = {{TransferKind::copy, "copy"},
                                                                {TransferKind::reduce, "reduce"}};
inline constexpr EnumNamer transfer_kind_name{kTransferKindNames};

// Where a transfer sits in a pipelined schedule (core/schedule/pipeline.h): which channel,
// which of the source article's rounds, which slice. In a lock-step schedule channel = slice = 0 and
// round is the round's index.
struct PipelineStep {
  int channel = 0;
  int round = 0;
  int slice = 0;
  bool operator==(const PipelineStep&) const = default;
};

struct Transfer {
  int src = 0;
  int dst = 0;
  // The receiver's slot; also the sender's unless src_slot names another.
  int slot = 0;
  TransferKind kind = TransferKind::copy;
  // This reduce folds in the last missing contribution: avg divides the slot by N here.
  bool completes_slot = false;
  PipelineStep step;
  // The sender's slot when it differs from the receiver's: AllToAll's GPU r sends its block j
  // (slot j) into GPU j's slot r. kSameSlot for every other op, whose slots keep their place.
  int src_slot = kSameSlot;

  static constexpr int kSameSlot = -1;
  // The slot the sender reads: what every backend, the round planner, provenance and the
  // views take from the sending rank.
  int source_slot() const { return src_slot == kSameSlot ? slot : src_slot; }
};

// All transfers of a round happen at once: every receiver sees the sender's slot as it was
// before the round began.
struct Round {
  Phase phase = Phase::reduce_scatter;
  std::vector<Transfer> transfers;
};

struct Schedule {
  // Lock-step: the source article's rounds. Pipelined (channels or slices above 1): waves of steps.
  std::vector<Round> rounds;
  int channels = 1;
  int slices = 1;
  // The algorithm's own channels among `channels`, each a part of every slot before --channels
  // cuts it further (the bidirectional ring: one half per direction); see PipelineShape.
  int lanes = 1;
  // The phase of each of the source article's rounds, indexed by PipelineStep::round.
  std::vector<Phase> round_phases;
  // ReduceScatter: the slot each rank holds fully reduced at the end. AllReduce: the slot it
  // owns between the two phases. AllGather: the slot it contributes.
  std::vector<int> owned_slot;
  // Every transfer passes through an NVSwitch that reduces (NVLS, NVLink SHARP): a round's
  // transfers into one (rank, slot) are the switch folding its parts and delivering the sum
  // once, and a sender's slot that goes to several GPUs crosses its link once, the switch
  // copying it to each (multicast). Traffic counts each such slot once per rank and round.
  bool through_switch = false;

  int round_count() const { return static_cast<int>(rounds.size()); }
};

}  // namespace ringviz
