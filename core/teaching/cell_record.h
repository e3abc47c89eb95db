#pragma once
// The packed layout of the ring view's per-cell data, defined once: core/teaching/visual_cells.cpp
// packs it on the host, gpu/interop/visual_bins.cu writes the bins on the device through GL interop,
// and shaders/cells.frag.glsl reads both (it spells the same word positions in GLSL, which
// cannot include this). Changing a position here means changing the shader with it.
//
// Plain C++17 with nothing but <cstdint>, so that nvcc can compile it into a kernel; the
// functions the kernel calls are RINGVIZ_HD.
#include <cstdint>

#include "core/model/portable.h"

namespace ringviz {

// ---- cell records: std::uint32_t words, kCellWords per cell (3 RGBA32UI texels) ----

inline constexpr int kCellMaskWords = 8;  // 256 ranks, one bit each
inline constexpr int kCellWords = 12;

// Where each field of a record sits, in words from the record's start.
inline constexpr int kCellWordMask = 0;          // words 0..7: bit k % 32 of word k / 32 is rank k
inline constexpr int kCellWordContributors = 8;  // popcount of the mask, 0 .. N
inline constexpr int kCellWordFlags = 9;         // CellFlag bits
inline constexpr int kCellWordBinsUsed = 10;     // min(slot element count, bins per slot)
inline constexpr int kCellWordLowestRank = 11;   // lowest contributing rank, or kNoContributor

inline constexpr std::uint32_t kNoContributor = 0xFFFFFFFFu;

enum CellFlag : std::uint32_t {
  kCellEmpty = 1u << 0,      // no contributor yet: nothing has arrived (drawn hatched)
  kCellStale = 1u << 1,      // a partial sum the rank no longer needs once the
                             // reduce-scatter pass is over (drawn dimmed)
  kCellComplete = 1u << 2,   // reduce ops: every rank's input is folded in
  kCellOwned = 1u << 3,      // the slot this rank owns (schedule.owned_slot)
  kCellNoElements = 1u << 4, // the layout gives this slot zero elements (count < N)
};

// One cell's record with named fields; pack_cell_record() lays it into the words.
struct CellRecord {
  std::uint32_t mask[kCellMaskWords] = {};
  std::uint32_t contributors = 0;
  std::uint32_t flags = 0;
  std::uint32_t bins_used = 0;
  std::uint32_t lowest_rank = kNoContributor;
};

RINGVIZ_HD inline void pack_cell_record(const CellRecord& record, std::uint32_t* words) {
  for (int w = 0; w < kCellMaskWords; ++w) words[kCellWordMask + w] = record.mask[w];
  words[kCellWordContributors] = record.contributors;
  words[kCellWordFlags] = record.flags;
  words[kCellWordBinsUsed] = record.bins_used;
  words[kCellWordLowestRank] = record.lowest_rank;
}

// Cell c = rank * S + slot (rank-major) for ranks of S slots each (visual_cells.h).
RINGVIZ_HD inline std::int64_t cell_index(int rank, int slot, int slots) {
  return static_cast<std::int64_t>(rank) * slots + slot;
}

// ---- bins: float pairs, bins_per_slot pairs per cell (RG32F texels) ----

inline constexpr int kBinFloats = 2;
inline constexpr int kBinValue = 0;       // the mean of the bin's elements, as float
inline constexpr int kBinNormalised = 1;  // its place in the value range, [0, 1]; -1 for NaN

// The float index of bin `bin` of cell `cell`.
RINGVIZ_HD inline std::int64_t bin_float_index(std::int64_t cell, int bins_per_slot, std::int64_t bin) {
  return (cell * bins_per_slot + bin) * kBinFloats;
}

}  // namespace ringviz
