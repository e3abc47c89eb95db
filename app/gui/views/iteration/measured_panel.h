#pragma once
// The Memory view's "Measured" mode: what a recorded job measured (ringviz_torch.measure) beside
// the memory model's figures for the same shapes, one pair of bars per term, labelled measured
// and model, with the difference and its tolerance named on each term's line
// (core/job/memory_comparison.h; the same numbers as `ringviz memory --from-job`).
#include <optional>
#include <string>

#include "app/gui/layout/geometry.h"
#include "app/gui/state/centre_view_context.h"
#include "core/job/memory_comparison.h"

namespace ringviz::gui {

class MeasuredMemoryPanel {
 public:
  // `audience`: no controls, the configuration and rank in words.
  void draw(const Rect& area, const ViewContext& context, const Job& job, bool audience);
  // The comparison on screen (for tests and the layout dump); nullopt until drawn once.
  const std::optional<MemoryComparison>& shown() const { return shown_; }

 private:
  std::size_t configuration_ = 0;  // index into the job's distinct labels
  int rank_ = 0;
  std::optional<MemoryComparison> shown_;
  std::string error_;
};

}  // namespace ringviz::gui
