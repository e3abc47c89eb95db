#pragma once
// The comparison view: every algorithm that can run the setup panel's collective, with its
// rounds, messages, bytes sent per GPU, busiest link and predicted time, simulated with
// contention on a chosen topology (a preset sized to the setup panel's GPUs, or the star of a
// link preset); a log-log plot of predicted time against message size (1 KiB - 1 GiB) with
// the crossovers marked and a sentence said from it; and the link view of the current step
// on that topology beside them (docs/architecture.md, "The Compare tab on a topology").
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/compare/comparison_job.h"
#include "app/gui/compare/topology_choice.h"
#include "app/gui/state/centre_view_context.h"
#include "app/gui/plots/view_text.h"
#include "app/gui/layout/geometry.h"
#include "app/gui/text/strings.h"
#include "core/training/cost_model.h"

struct ImDrawList;

namespace ringviz::gui {

class CompareView {
 public:
  void set_link(const std::string& key);  // a cost_model link preset key; unknown keys are ignored
  const std::string& link() const { return link_key_; }
  // A kind of topology_kinds() or a preset spec; unknown ones are ignored.
  void set_topology(const std::string& text);
  const TopologyChoice& topology() const { return topology_; }

  // The comparison for `config` on the chosen topology (recomputed only when the question, the
  // topology or the link changes). Blocks until it is there.
  const CostComparison* comparison_for(const Config& config);
  const std::string& error() const;
  // The sentence under the plot for the last comparison ("" while none).
  std::string sentence() const;
  // The "what NCCL would do" line for the last comparison ("" while none, or for an op the NCCL
  // model does not cover).
  std::string nccl_line() const;
  // The last answer asked for (with the topology's routes), null while being computed.
  const ComparisonAnswer* last_answer() const { return answer_; }

  void draw(const Rect& area, const ViewContext& context);

 private:
  // The language of the last draw()'s context: what the view's words and its measurements
  // outside draw() speak.
  const UiStrings& text() const { return ui_strings_for(language_); }
  Language language_ = Language::en;
  // The table's texts, measured: each column as wide as its widest text.
  struct TableCells {
    std::array<std::string, 6> headers;
    std::vector<std::array<std::string, 6>> rows;
    std::vector<bool> best;  // the fastest at this size
    std::array<float, 6> widths{};
  };
  // The plot's texts, measured for its width, and the least height the plot needs with them.
  struct PlotTexts {
    WrappedText title, sentence;
    float x_row_h = 0;
    float legend_entry_w = 0, legend_pitch = 0;
    float min_h = 0;
  };
  // The plot's height in lines of text: the least it is drawn at, and the least worth giving
  // up the hint and the selector for.
  static constexpr float kMinPlotLines = 3.0f;
  static constexpr float kGoodPlotLines = 6.0f;
  // The left column's least width in lines of text, beside the link view.
  static constexpr float kMinColumnLines = 24.0f;

  ComparisonQuestion question_for(const Config& config) const;
  const ComparisonAnswer* answer_for(const Config& config, bool wait);
  std::string shown_topology_name(const TopologyChoice& choice, int gpus) const;
  std::string selector_words() const;  // the link's figures, or the machine's label
  float link_combo_width() const;
  std::vector<float> selector_widths() const;
  float selector_height(float width) const;
  void draw_machine_selector(const Config& config, float width);
  TableCells table_cells(const CostComparison& comparison) const;
  // The columns shown in `width`, in order; empty when not even the algorithm and its time fit.
  static std::vector<int> shown_columns(const TableCells& cells, float width);
  static float table_row_height();
  void draw_table(const CostComparison& comparison, const TableCells& cells, const std::vector<int>& columns,
                  int visible_rows, const Config& current, const ViewContext& context, float width);
  PlotTexts measure_plot(const CostComparison& comparison, float width, float plot_lines) const;
  // `table_names_all`: the table above shows every algorithm's name in its colour.
  void draw_plot(ImDrawList* dl, const Rect& area, const PlotTexts& m, const CostComparison& comparison,
                 const Config& current, const ViewContext& context, bool table_names_all);

  std::string link_key_ = "nvlink4";
  TopologyChoice topology_{"star"};
  ComparisonJob job_;
  const ComparisonAnswer* answer_ = nullptr;  // the last answer shown
};

// A colour per algorithm, the same in the table and the plot.
Rgb algorithm_colour(Algorithm algorithm);
// "850 ns", "12.3 us", "4.56 ms", "1.23 s".
std::string format_seconds(double seconds);

}  // namespace ringviz::gui
