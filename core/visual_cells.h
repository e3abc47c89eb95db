#pragma once
// The per-cell visual data that the ring view's shader draws: one "cell" is one slot of one
// rank's working buffer. This header is the contract between whoever fills the data (the CPU
// code in visual_cells.cpp today; later a CUDA kernel writing straight into the GL buffers
// through CUDA-GL interop) and shaders/cells.frag, which only reads it. Change the format
// here, in visual_cells.cpp and in the shader together.
//
// FORMAT (all arrays tightly packed, little-endian, no padding between records)
//
//   ranks N, slots per rank N, cell index  c = rank * N + slot   (rank-major)
//
//   cells : std::uint32_t[N * N * kCellWords]      -> GL buffer, texture format GL_RGBA32UI
//           record of cell c starts at word c * kCellWords (3 RGBA texels per cell):
//     word 0..7  contributor mask: bit (k % 32) of word (k / 32) is set when rank k's input of
//                this slot is folded into the value (Provenance::at). Ranks >= N are 0.
//     word 8     number of contributors (popcount of the mask), 0 .. N
//     word 9     flags, the CellFlag bits below
//     word 10    bins used by this slot: min(slot element count, bins_per_slot); 0 when the
//                slot has no elements
//     word 11    the lowest contributing rank, or 0xFFFFFFFF when there is none
//
//   bins  : float[N * N * bins_per_slot * 2]        -> GL buffer, texture format GL_RG32F
//           bin b of cell c is the pair at float index (c * bins_per_slot + b) * 2:
//     [0]  value: the mean of the bin's elements, converted to float (f16/bf16 exactly,
//          integers rounded to nearest float); NaN if any element is NaN
//     [1]  normalised value: (value - range.lo) / (range.hi - range.lo) clamped to [0, 1];
//          0.5 when hi <= lo; -1 when the value is NaN (the shader marks it)
//           Bins b >= "bins used" of a cell are 0 and never read. Bin b of a slot with
//           `count` elements (bins used = u) covers the slot's elements
//           [floor(b * count / u), floor((b + 1) * count / u)), so every element is in
//           exactly one bin and bins are as even as integer division allows.
//
//   bins_per_slot = bins_per_slot_for(layout, N): the largest slot's element count, capped so
//   that N * N * bins_per_slot stays within kVisualBinBudget (at least 1). It depends only on
//   the config, so a GL buffer sized once per session fits every round.
#include <cstdint>
#include <vector>

#include "core/buffers.h"
#include "core/config.h"
#include "core/layout.h"
#include "core/provenance.h"
#include "core/schedule.h"

namespace ringviz {

inline constexpr int kCellWords = 12;
inline constexpr int kCellMaskWords = 8;
inline constexpr std::int64_t kVisualBinBudget = std::int64_t{1} << 20;
inline constexpr std::uint32_t kNoContributor = 0xFFFFFFFFu;

enum CellFlag : std::uint32_t {
  kCellEmpty = 1u << 0,      // no contributor yet: nothing has arrived (drawn hatched)
  kCellStale = 1u << 1,      // a partial sum the rank no longer needs once the
                             // reduce-scatter pass is over (drawn dimmed)
  kCellComplete = 1u << 2,   // reduce ops: every rank's input is folded in
  kCellOwned = 1u << 3,      // the slot this rank owns (schedule.owned_slot)
  kCellNoElements = 1u << 4, // the layout gives this slot zero elements (count < N)
};

// The span of values the heatmap maps to [0, 1]. Callers usually take the union of the
// inputs and the final result, so that colours do not shift from round to round.
struct ValueRange {
  double lo = 0;
  double hi = 0;
  bool valid() const { return hi >= lo; }
  void include(const ValueRange& other);
};

struct VisualCells {
  int ranks = 0;
  int bins_per_slot = 0;
  std::vector<std::uint32_t> cells;  // ranks * ranks * kCellWords
  std::vector<float> bins;           // ranks * ranks * bins_per_slot * 2

  std::size_t cell_index(int rank, int slot) const {
    return static_cast<std::size_t>(rank) * static_cast<std::size_t>(ranks) +
           static_cast<std::size_t>(slot);
  }
  const std::uint32_t* cell(int rank, int slot) const {
    return cells.data() + cell_index(rank, slot) * kCellWords;
  }
  std::uint32_t flags(int rank, int slot) const { return cell(rank, slot)[9]; }
  // value (which = 0) or normalised value (which = 1) of one bin
  float bin(int rank, int slot, int bin_index, int which) const {
    return bins[(cell_index(rank, slot) * static_cast<std::size_t>(bins_per_slot) +
                 static_cast<std::size_t>(bin_index)) * 2 + static_cast<std::size_t>(which)];
  }
};

int bins_per_slot_for(const SlotLayout& layout, int ranks,
                      std::int64_t budget = kVisualBinBudget);

// Min and max over the elements of every non-empty cell (NaN skipped; lo > hi when there is
// no finite value at all).
ValueRange value_range(const BufferState& state, const Provenance& provenance,
                       const SlotLayout& layout);

// Fills `out` for the state after `rounds_done` rounds of `schedule`. Resizes `out` when the
// shape changed; otherwise reuses its storage.
void fill_visual_cells(const Config& config, const SlotLayout& layout, const Schedule& schedule,
                       int rounds_done, const BufferState& state, const Provenance& provenance,
                       ValueRange range, VisualCells& out);

// The rounds of the reduce-scatter pass (0 for AllGather): a partial sum is stale after them.
int reduce_scatter_rounds(const Config& config);

}  // namespace ringviz
