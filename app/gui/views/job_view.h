#pragma once
// The Job view: an imported training job (docs/job-format.md) on one timeline. One lane per
// rank, compute above (forward, backward, optimizer, the GPU's busy time) and communication
// below, each collective a bar coloured by its op and labelled with its size; the rank that
// started each collective last is marked; the wheel zooms, a drag pans, hovering shows the
// collective's `job show` row and a click steps it on the ring.
#include <cstddef>
#include <map>
#include <utility>

#include "app/gui/layout/geometry.h"
#include "app/gui/state/centre_view_context.h"

namespace ringviz::gui {

// The hover text of one collective's bar: the row of `ringviz job show`, with the NCCL model's
// time beside the measured one where the model has it (docs/nccl-model.md).
std::string job_tooltip_text(const JobRow& row, const Run& run, Language language);

class JobView {
 public:
  void draw(const Rect& area, const ViewContext& context);

 private:
  // The visible time range in microseconds; fitted to the job when a new one opens.
  double start_us_ = 0, end_us_ = 0;
  const Job* fitted_for_ = nullptr;
  bool dragging_ = false;
  // Which collective (an index into the context's job_collectives) each group's n-th is.
  std::map<std::pair<int, int>, std::size_t> collective_of_;
  // Each instance's `job show` row (for its slowest mark and tooltip), built once per job
  // rather than every frame.
  std::map<const CollectiveInstance*, const JobRow*> row_of_;
};

}  // namespace ringviz::gui
