#include "core/trace/recorded_compare.h"

#include <cmath>

namespace ringviz {

namespace {

bool same_value(const ElementValue& a, const ElementValue& b) {
  if (a.is_integer || b.is_integer) return a.is_integer == b.is_integer && a.integer == b.integer;
  if (std::isnan(a.real) || std::isnan(b.real)) return std::isnan(a.real) && std::isnan(b.real);
  return a.real == b.real && std::signbit(a.real) == std::signbit(b.real);
}

}  // namespace

std::optional<BufferDifference> first_difference(const BufferState& recorded, const BufferState& computed,
                                                 const SlotLayout& layout, const Provenance& provenance) {
  for (int rank = 0; rank < static_cast<int>(recorded.ranks.size()); ++rank) {
    for (int slot = 0; slot < layout.size(); ++slot) {
      if (provenance.at(rank, slot).none()) continue;
      for (std::int64_t i = layout[slot].offset; i < layout[slot].offset + layout[slot].count; ++i) {
        const ElementValue a = read_element(recorded, rank, i);
        const ElementValue b = read_element(computed, rank, i);
        if (!same_value(a, b)) return BufferDifference{rank, i, a, b};
      }
    }
  }
  return std::nullopt;
}

std::optional<RecordedMismatch> first_recorded_mismatch(const RecordedRun& run, Session& session) {
  session.reset();
  if (run.initial)
    if (auto difference = first_difference(*run.initial, session.buffers(), run.layout, session.provenance()))
      return RecordedMismatch{0, *difference};
  for (std::size_t index = 0; index < run.rounds.size() && !session.at_end(); ++index) {
    session.step_forward();
    const std::optional<BufferState>& recorded = run.rounds[index].buffers;
    if (!recorded) continue;
    if (auto difference = first_difference(*recorded, session.buffers(), run.layout, session.provenance()))
      return RecordedMismatch{session.round(), *difference};
  }
  if (!run.outputs || !session.at_end()) return std::nullopt;
  const std::vector<ByteBuffer> computed = session.outputs();
  for (int rank = 0; rank < static_cast<int>(run.outputs->size()); ++rank) {
    const ByteBuffer& row = (*run.outputs)[static_cast<std::size_t>(rank)];
    const auto elements = static_cast<std::int64_t>(row.size() / dtype_size(run.config.dtype));
    const BufferState recorded_row{run.config.dtype, elements, {row}};
    const BufferState computed_row{run.config.dtype, elements, {computed[static_cast<std::size_t>(rank)]}};
    for (std::int64_t i = 0; i < elements; ++i) {
      const ElementValue a = read_element(recorded_row, 0, i);
      const ElementValue b = read_element(computed_row, 0, i);
      if (!same_value(a, b)) return RecordedMismatch{session.round(), BufferDifference{rank, i, a, b}, true};
    }
  }
  return std::nullopt;
}

}  // namespace ringviz
