#include "core/teaching/visual_cells.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "core/model/half.h"
#include "core/model/storage_type.h"

namespace ringviz {

namespace {

// Element i of a rank's buffer widened to double, without the per-element switch of
// read_element: the heatmap reads up to millions of elements per frame that changes.
template <class Storage>
double widen(const Storage& value) {
  if constexpr (std::is_same_v<Storage, Half>) return half_to_float(value);
  else if constexpr (std::is_same_v<Storage, BFloat16>) return bfloat16_to_float(value);
  else return static_cast<double>(value);
}

// std::bitset keeps no promise about its layout, but libstdc++ and libc++ both store bit i in
// 64-bit word i / 64 at position i % 64. When that holds (checked once at run time) a set's
// mask words are copied out directly; otherwise they are assembled bit by bit.
bool bitset_is_plain_words() {
  static const bool plain = [] {
    if (sizeof(RankSet) != kMaxRanks / 8) return false;
    RankSet probe;
    probe.set(70);
    probe.set(200);
    std::uint64_t words[kMaxRanks / 64] = {};
    std::memcpy(words, &probe, sizeof words);
    return words[0] == 0 && words[1] == (std::uint64_t{1} << 6) && words[2] == 0 &&
           words[3] == (std::uint64_t{1} << 8);
  }();
  return plain;
}

void mask_words(const RankSet& set, std::uint32_t (&out)[kCellMaskWords]) {
  if (bitset_is_plain_words()) {
    std::uint64_t words[kMaxRanks / 64];
    std::memcpy(words, &set, sizeof words);
    for (int w = 0; w < kCellMaskWords; ++w)
      out[w] = static_cast<std::uint32_t>(words[w / 2] >> (32 * (w % 2)));
    return;
  }
  for (int w = 0; w < kCellMaskWords; ++w) {
    out[w] = 0;
    for (int b = 0; b < 32; ++b)
      if (set.test(static_cast<std::size_t>(w * 32 + b))) out[w] |= 1u << b;
  }
}

float normalise(double value, const ValueRange& range) {
  if (std::isnan(value)) return -1.0f;
  if (!(range.hi > range.lo)) return 0.5f;
  const double t = (value - range.lo) / (range.hi - range.lo);
  return static_cast<float>(std::clamp(t, 0.0, 1.0));
}

}  // namespace

void ValueRange::include(const ValueRange& other) {
  if (!other.valid()) return;
  if (!valid()) {
    *this = other;
    return;
  }
  lo = std::min(lo, other.lo);
  hi = std::max(hi, other.hi);
}

int reduce_scatter_rounds(const Schedule& schedule) {
  int count = 0;
  for (const Round& round : schedule.rounds)
    if (round.phase == Phase::reduce_scatter) ++count;
  return count;
}

int bins_per_slot_for(const SlotLayout& layout, int ranks, std::int64_t budget) {
  std::int64_t largest = 0;
  for (const Slot& slot : layout.slots) largest = std::max(largest, slot.count);
  const std::int64_t cells = std::max<std::int64_t>(1, std::int64_t{ranks} * layout.size());
  const std::int64_t cap = std::max<std::int64_t>(1, budget / cells);
  return static_cast<int>(std::clamp<std::int64_t>(largest, 1, cap));
}

ValueRange value_range(const BufferState& state, const Provenance& provenance,
                       const SlotLayout& layout) {
  ValueRange range{1, 0};  // invalid until a finite value is seen
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  const int ranks = provenance.ranks();
  with_storage_type(state.dtype, [&](auto* type) {
    using Storage = storage_of<decltype(type)>;
    for (int rank = 0; rank < ranks; ++rank) {
      const Storage* data = state.data<Storage>(rank);
      for (int slot = 0; slot < layout.size(); ++slot) {
        if (provenance.at(rank, slot).none()) continue;
        const Slot& span = layout[slot];
        for (std::int64_t i = span.offset; i < span.offset + span.count; ++i) {
          const double v = widen(data[i]);
          if (!std::isfinite(v)) continue;
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
      }
    }
  });
  if (lo <= hi) range = {lo, hi};
  return range;
}

namespace {

// What every cell's flags depend on besides its own provenance, worked out once per fill.
struct CellContext {
  const Config& config;
  const SlotLayout& layout;
  const Schedule& schedule;
  const Provenance& provenance;
  int bins_per_slot = 1;
  // Partial sums are only worth keeping while the reduce-scatter pass is still running.
  bool reduce_pass_over = false;
};

CellRecord describe_cell(const CellContext& context, int rank, int slot) {
  const int n = context.config.ranks;
  CellRecord record;
  // Word by word rather than bit by bit: 256 GPUs have 65536 cells of 256 bits each.
  mask_words(context.provenance.at(rank, slot), record.mask);
  for (int w = 0; w < kCellMaskWords; ++w) {
    const std::uint32_t word = record.mask[w];
    record.contributors += static_cast<std::uint32_t>(std::popcount(word));
    if (record.lowest_rank == kNoContributor && word != 0)
      record.lowest_rank = static_cast<std::uint32_t>(w * 32 + std::countr_zero(word));
  }
  const std::uint32_t count = record.contributors;
  if (count == 0) record.flags |= kCellEmpty;
  if (op_reduces(context.config.op)) {
    if (count == static_cast<std::uint32_t>(n)) record.flags |= kCellComplete;
    if (context.reduce_pass_over && count > 0 && count < static_cast<std::uint32_t>(n))
      record.flags |= kCellStale;
    const std::vector<int>& owned = context.schedule.owned_slot;
    if (owned.size() == static_cast<std::size_t>(n) && owned[static_cast<std::size_t>(rank)] == slot)
      record.flags |= kCellOwned;
  }
  const std::int64_t elements = context.layout[slot].count;
  if (elements == 0) record.flags |= kCellNoElements;
  record.bins_used = static_cast<std::uint32_t>(std::min<std::int64_t>(elements, context.bins_per_slot));
  return record;
}

}  // namespace

void fill_cell_records(const Config& config, const SlotLayout& layout, const Schedule& schedule,
                       int rounds_done, const Provenance& provenance,
                       std::vector<std::uint32_t>& out) {
  const int n = config.ranks;
  const int slots = layout.size();
  const CellContext context{config,
                            layout,
                            schedule,
                            provenance,
                            bins_per_slot_for(layout, n),
                            op_reduces(config.op) && rounds_done >= reduce_scatter_rounds(schedule)};
  out.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(slots) * kCellWords, 0u);
  for (int rank = 0; rank < n; ++rank)
    for (int slot = 0; slot < slots; ++slot)
      pack_cell_record(describe_cell(context, rank, slot), out.data() + cell_index(rank, slot, slots) * kCellWords);
}

void fill_visual_cells(const Config& config, const SlotLayout& layout, const Schedule& schedule,
                       int rounds_done, const BufferState& state, const Provenance& provenance,
                       ValueRange range, VisualCells& out) {
  const int n = config.ranks;
  const int slots = layout.size();
  const int bins_per_slot = bins_per_slot_for(layout, n);
  out.ranks = n;
  out.slots = slots;
  out.bins_per_slot = bins_per_slot;
  const std::size_t cells = static_cast<std::size_t>(n) * static_cast<std::size_t>(slots);
  fill_cell_records(config, layout, schedule, rounds_done, provenance, out.cells);
  out.bins.assign(cells * static_cast<std::size_t>(bins_per_slot) * kBinFloats, 0.0f);

  with_storage_type(state.dtype, [&](auto* type) {
    using Storage = storage_of<decltype(type)>;
    for (int rank = 0; rank < n; ++rank) {
      const Storage* data = state.data<Storage>(rank);
      for (int slot = 0; slot < slots; ++slot) {
        const Slot& span = layout[slot];
        const std::int64_t used = std::min<std::int64_t>(span.count, bins_per_slot);
        const std::int64_t cell = cell_index(rank, slot, slots);
        for (std::int64_t b = 0; b < used; ++b) {
          const std::int64_t begin = b * span.count / used;
          const std::int64_t end = (b + 1) * span.count / used;
          double sum = 0;
          for (std::int64_t i = begin; i < end; ++i) sum += widen(data[span.offset + i]);
          const double mean = sum / static_cast<double>(end - begin);
          float* bin = out.bins.data() + bin_float_index(cell, bins_per_slot, b);
          bin[kBinValue] = static_cast<float>(mean);
          bin[kBinNormalised] = normalise(mean, range);
        }
      }
    }
  });
}

}  // namespace ringviz
