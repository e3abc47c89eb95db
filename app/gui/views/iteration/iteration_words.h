#pragma once
// The whole-iteration mode's sentences in the language asked for, worded from the iteration model's
// data (core/training/iteration_model.h keeps its own English labels for the CLI).
#include <string>

#include "core/model/text.h"
#include "core/training/iteration_model.h"

namespace ringviz::gui {

// "forward through layer 12 of 32", "optimizer step" ...
std::string iteration_event_text(const IterationEstimate& estimate, int event, Language language);
// "Peak 202.7 GB per GPU at "loss: ...": activations (104.2 GB) on top of 98.0 GB of weights and
// optimizer states." The weights and optimizer states are named apart from the gradients: before
// backward there are none, so they are not the model states the optimizer step holds (112 GB).
std::string iteration_peak_text(const IterationEstimate& estimate, Language language);
// "Fits in 80 GB: 3.2 GB to spare" or "Does not fit in 80 GB: over by 15.1 GB".
std::string iteration_fit_text(const IterationEstimate& estimate, Language language);
// What is modelled, in one sentence for an audience (the Memory tab's header in place of its
// controls): "Custom (7B parameters), DDP on 8 GPUs of 80.0 GB, sequence 4096 x micro-batch 1, ...".
std::string iteration_audience_summary(const IterationQuery& query, Language language);
// "12.3 GB" (the GUI's gigabytes, 10^9 bytes, as `ringviz memory` prints them).
std::string iteration_gb(double bytes);
// "1.23 s", "850 ms".
std::string iteration_seconds(double seconds);

}  // namespace ringviz::gui
