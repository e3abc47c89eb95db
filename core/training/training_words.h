#pragma once
// The training models' sentences in the command line's languages. The models build their
// English labels and notes where they compute (core keeps them in the results, and JSON prints
// them); the Chinese wording is built here from the same data, so that a table printed with
// --lang zh reads Chinese throughout while the English stays exactly what the model wrote.
#include <string>
#include <string_view>

#include "core/model/text.h"
#include "core/training/iteration_model.h"
#include "core/training/memory_model.h"
#include "core/training/training_timeline.h"

namespace ringviz {

// convention_assumptions() in `language`.
std::string_view convention_assumptions(MemoryConvention convention, Language language);
// activation_formula() in `language`: "s·b·h·(34 + 5·a·s/h) per layer" / "每层 s·b·h·(34 + 5·a·s/h)".
std::string_view activation_formula(Recompute recompute, Language language);
// kActivationCaveat in `language`.
std::string_view activation_caveat(Language language);
// A model-state component as a table column names it ("params", "grads", ... / "参数" ...).
std::string_view component_heading(StateComponent component, Language language);

// What step `step` of a memory timeline (`ringviz memory --timeline`) does: its own label in
// English, the same sentence in Chinese.
std::string timeline_step_label(const IterationTimeline& timeline, const IterationStep& step, Language language);

// One event of the whole iteration (`ringviz memory --model`), and the peak's description,
// worded as IterationEvent::label and IterationPeak::description are in English.
std::string iteration_event_label(const IterationEstimate& estimate, const IterationEvent& event, Language language);
std::string iteration_peak_description(const IterationEstimate& estimate, Language language);
// IterationTime::overlap in `language`.
std::string iteration_overlap(const IterationEstimate& estimate, Language language);

}  // namespace ringviz
