#pragma once
// The comparison view: every algorithm that can run the setup panel's collective, with its
// rounds, messages, bytes sent per GPU, busiest link and predicted time under the α-β-γ model
// of a chosen link; a log-log plot of predicted time against message size (1 KiB - 1 GiB)
// with the crossovers marked; and the link view of the current round beside them.
#include <optional>
#include <string>

#include "app/gui/views/centre_view_context.h"
#include "app/gui/layout/geometry.h"
#include "core/training/cost_model.h"

struct ImDrawList;

namespace ringviz::gui {

class CompareView {
 public:
  void set_link(const std::string& key);  // a cost_model link preset key; unknown keys are ignored
  const std::string& link() const { return link_key_; }

  // The comparison for `config` (recomputed only when the question or the link changes).
  const CostComparison* comparison_for(const Config& config);
  const std::string& error() const { return error_; }

  void draw(const Rect& area, const ViewContext& context);

 private:
  void draw_table(const Config& current, const ViewContext& context, float width);
  void draw_plot(ImDrawList* dl, const Rect& area, const Config& current, const ViewContext& context);

  std::string link_key_ = "nvlink4";
  std::optional<Config> computed_for_;
  std::string computed_link_;
  std::optional<CostComparison> comparison_;
  std::string error_;
};

// A colour per algorithm, the same in the table and the plot.
Rgb algorithm_colour(Algorithm algorithm);
// "850 ns", "12.3 us", "4.56 ms", "1.23 s".
std::string format_seconds(double seconds);

}  // namespace ringviz::gui
