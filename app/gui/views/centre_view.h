#pragma once
// The centre of the window shows one of six views, chosen by a tab bar above it or --view
// (through GuiApp::set_centre_view): the ring, the memory per GPU during a training
// iteration, a real training run, the comparison of algorithms, the devices the ring runs on,
// and an imported training job's collectives on a timeline.
#include <string_view>

#include "app/gui/views/compare_view.h"
#include "app/gui/layout/geometry.h"
#include "app/gui/layout/panel_layout.h"
#include "app/gui/state/centre_view_context.h"
#include "app/gui/views/iteration/memory_view.h"
#include "app/gui/views/job_view.h"
#include "app/gui/views/training_view.h"
#include "core/request/show_request.h"

namespace ringviz::gui {


// The views other than the ring, which one is on screen, and the tab bar that chooses it.
// GuiApp owns one, and draws the ring (with its caption) itself when it is the current view.
class CentreViews {
 public:
  CentreView current() const { return current_; }
  void set_current(CentreView view) { current_ = view; }

  // Draws the tab bar across the top of the centre (the caption and the view of `panels`) and
  // moves the caption and the view down below it. Returns the area under the tabs, where a
  // view other than the ring draws.
  Rect draw_tab_bar(PanelLayout& panels, float ui_scale, Language language);
  // Draws the current view into `area` unless it is the ring.
  void draw_current(const Rect& area, const ViewContext& context);
  // The right end of the last tab in the last frame: controls that share the strip (the lesson
  // bar, the Record button) must start right of it, or they cover a tab and take its clicks.
  float tabs_right() const { return tabs_right_; }

  MemoryView& memory() { return memory_; }
  TrainingView& training() { return training_; }
  CompareView& compare() { return compare_; }

  // Moves the memory view's iteration and the training view's run forward by `seconds`.
  void advance(double seconds);
  // True while a view plays on its own, so the host keeps drawing frames.
  bool animating() const;

 private:
  CentreView current_ = CentreView::ring;
  CentreView tab_reported_ = CentreView::ring;  // what the tab bar showed last frame
  float tabs_right_ = 0;
  MemoryView memory_;
  TrainingView training_;
  CompareView compare_;
  JobView job_;
};

}  // namespace ringviz::gui
