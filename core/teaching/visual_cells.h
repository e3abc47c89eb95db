#pragma once
// The per-cell visual data that the ring view's shader draws: one "cell" is one slot of one
// rank's working buffer. The host fills it here (records and bins); with CUDA-GL interop the
// records come from here too and gpu/interop/visual_bins.cu writes the bins straight into the GL
// buffer. shaders/cells.frag.glsl only reads it.
//
// FORMAT: the record and bin layout is core/teaching/cell_record.h. Arrays are tightly packed,
// little-endian, with no padding between records:
//
//   ranks N, slots per rank S (N; N x N for an uneven AllToAll), cell index c = rank * S + slot
//   (rank-major)
//
//   cells : std::uint32_t[N * S * kCellWords]      -> GL buffer, texture format GL_RGBA32UI
//           the record of cell c starts at word c * kCellWords. Mask bits of ranks >= N are
//           0; bins used is 0 when the slot has no elements.
//
//   bins  : float[N * S * bins_per_slot * kBinFloats] -> GL buffer, texture format GL_RG32F
//           bin b of cell c starts at bin_float_index(c, bins_per_slot, b):
//     value       the mean of the bin's elements, converted to float (f16/bf16 exactly,
//                 integers rounded to nearest float); NaN if any element is NaN
//     normalised  (value - range.lo) / (range.hi - range.lo) clamped to [0, 1]; 0.5 when
//                 hi <= lo; -1 when the value is NaN (the shader marks it)
//           Bins b >= "bins used" of a cell are 0 and never read. Bin b of a slot with
//           `count` elements (bins used = u) covers the slot's elements
//           [floor(b * count / u), floor((b + 1) * count / u)), so every element is in
//           exactly one bin and bins are as even as integer division allows.
//
//   bins_per_slot = bins_per_slot_for(layout, N): the largest slot's element count, capped so
//   that N * S * bins_per_slot stays within kVisualBinBudget (at least 1). It depends only on
//   the config, so a GL buffer sized once per session fits every round.
#include <cstdint>
#include <vector>

#include "core/schedule/rounds.h"
#include "core/model/buffers.h"
#include "core/teaching/cell_record.h"
#include "core/model/config.h"
#include "core/model/layout.h"
#include "core/engine/provenance.h"

namespace ringviz {

inline constexpr std::int64_t kVisualBinBudget = std::int64_t{1} << 20;

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
  int slots = 0;  // per rank
  int bins_per_slot = 0;
  std::vector<std::uint32_t> cells;  // ranks * slots * kCellWords
  std::vector<float> bins;           // ranks * slots * bins_per_slot * kBinFloats

  std::size_t cell_index(int rank, int slot) const {
    return static_cast<std::size_t>(ringviz::cell_index(rank, slot, slots));
  }
  const std::uint32_t* cell(int rank, int slot) const {
    return cells.data() + cell_index(rank, slot) * kCellWords;
  }
  std::uint32_t flags(int rank, int slot) const { return cell(rank, slot)[kCellWordFlags]; }
  // kBinValue or kBinNormalised of one bin
  float bin(int rank, int slot, int bin_index, int which) const {
    return bins[static_cast<std::size_t>(
        bin_float_index(ringviz::cell_index(rank, slot, slots), bins_per_slot, bin_index) + which)];
  }
};

int bins_per_slot_for(const SlotLayout& layout, int ranks,
                      std::int64_t budget = kVisualBinBudget);

// Min and max over the elements of every non-empty cell (NaN skipped; lo > hi when there is
// no finite value at all).
ValueRange value_range(const BufferState& state, const Provenance& provenance,
                       const SlotLayout& layout);

// Every cell's record after `rounds_done` rounds of `schedule`, packed (the `cells` array
// above) into `out`, reusing its storage. Records depend on the schedule and provenance only,
// never on the values; the CPU upload and the CUDA interop both send exactly these words.
void fill_cell_records(const Config& config, const SlotLayout& layout, const Schedule& schedule,
                       int rounds_done, const Provenance& provenance,
                       std::vector<std::uint32_t>& out);

// Fills `out` for the state after `rounds_done` rounds of `schedule`. Resizes `out` when the
// shape changed; otherwise reuses its storage.
void fill_visual_cells(const Config& config, const SlotLayout& layout, const Schedule& schedule,
                       int rounds_done, const BufferState& state, const Provenance& provenance,
                       ValueRange range, VisualCells& out);

// The rounds of the schedule's reduce-scatter phase (0 for AllGather): a partial sum is stale
// after them. Counted from the schedule because naive, rhd and tree take fewer than ranks - 1.
int reduce_scatter_rounds(const Schedule& schedule);

}  // namespace ringviz
