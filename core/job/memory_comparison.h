#pragma once
// A measured training step (core/run/measured_memory.h) beside the memory model's figures for
// the same shapes, term by term, each with the tolerance it is held to and why (docs/memory.md,
// "Measured against the model"). `ringviz memory --from-job` prints it and the GUI's Memory view
// draws it; the python test asserts every term is within its tolerance.
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/text.h"
#include "core/run/measured_memory.h"

namespace ringviz {

enum class MemoryTerm {
  parameters,
  gradients,
  optimizer_states,
  optimizer_step_counters,
  layer_activations,  // one per layer, `layer` from 1
  recomputed_layer,
  outside_layers,
  activations_peak,
};

struct MemoryTermComparison {
  MemoryTerm term = MemoryTerm::parameters;
  int layer = 0;           // layer_activations: 1..L
  std::string name;        // "parameters", "layer 2 activations" (in the comparison's language)
  std::int64_t measured = 0;
  std::int64_t model = 0;
  // measured − model must lie in [low, high]: 0 and 0 where the model is exact.
  std::int64_t low = 0, high = 0;
  std::string why;  // what the tolerance is made of; "exact" when it is 0
  std::int64_t difference() const { return measured - model; }
  bool within() const { return difference() >= low && difference() <= high; }
  bool operator==(const MemoryTermComparison&) const = default;
};

struct MemoryComparison {
  MeasuredMemory measured;
  MemoryConvention convention = MemoryConvention::fp32;  // the one the element sizes match
  std::vector<MemoryTermComparison> terms;
  Language language = Language::en;  // of the terms' names and reasons
  bool within() const;
};

// Throws InputError when the measurement's shape is one the model cannot take (heads not
// dividing the width, a world the memory model refuses). Names and reasons in `language`.
MemoryComparison compare_measured_memory(const MeasuredMemory& measured, Language language = Language::en);

}  // namespace ringviz
