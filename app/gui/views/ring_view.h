#pragma once
// The ring view: GPU boxes, ring arrows, slot cells (drawn by CellRenderer), their labels and
// values, and the packets of the round in flight. A click on a box selects that GPU; hovering
// a cell explains it.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/layout/geometry.h"
#include "app/gui/layout/ring_geometry.h"
#include "app/gui/layout/switch_geometry.h"
#include "app/gui/pipeline/pipeline_overlay.h"
#include "app/gui/render/background_fill.h"
#include "app/gui/render/cell_renderer.h"
#include "app/gui/state/cell_source.h"
#include "app/gui/render/theme.h"
#include "app/gui/state/frame_context.h"
#include "app/gui/state/session_model.h"

namespace ringviz::gui {

// One ring arrow as drawn: GPU src to its neighbour dst, counter-clockwise or not, and lit
// (in the phase colour) because the round's transfers travel on it.
struct DrawnArrow {
  int src = 0;
  int dst = 0;
  bool counter_clockwise = false;
  bool busy = false;
  Vec2 middle;  // the arrow's point halfway along it
};

class RingView {
 public:
  // Needs a current GL 3.3 context; false with `error` saying what to do.
  bool init(std::string& error) { return renderer_.init(error); }

  // Draws `model`'s collective at `frame.moment` into `area`. The view's background goes
  // through `fills` (one clear instead of a blended rectangle); a click on a GPU box toggles
  // `selected_gpu`.
  void draw(const Rect& area, SessionModel& model, const FrameContext& frame, int& selected_gpu,
            BackgroundFills& fills);

  // Where the last frame put the boxes and cells (for --dump-layout and the lesson overlays).
  const RingGeometry& geometry() const { return geometry_; }
  // Where the cells come from (interop or upload) and why; its notice after a fallback.
  CellSource& cell_source() { return cell_source_; }
  const CellSource& cell_source() const { return cell_source_; }
  // The wave, its markers and the channel shown, when the schedule is pipelined.
  const PipelineFrame& pipeline_frame() const { return pipeline_.frame(); }
  // The label drawn on a cell in ImGui's current frame ("" where none was, or when the ring
  // was not drawn this frame), exactly as drawn (fitted to the cell), for --dump-layout.
  std::string drawn_label(int rank, int slot) const;
  // The ring arrows the last frame drew, clockwise then counter-clockwise, and which were lit.
  const std::vector<DrawnArrow>& drawn_arrows() const { return drawn_arrows_; }
  // The NVSwitch the last frame drew in the middle (a schedule through a switch), else null.
  const SwitchGeometry* drawn_switch() const { return switch_drawn_ ? &switch_ : nullptr; }

 private:
  // Lays the ring out again only when the area, the GPU count or the text size changed: the
  // layout searches over shapes, too slow for every frame. A schedule through a switch gets a
  // ring with room for the switch in its middle (layout_ring_with_switch).
  void fit_geometry(const Rect& ring_area, int ranks, int slots, float line, bool through_switch);
  // Brings the palette and the cells of `round` to the renderer when they differ from what it has.
  void sync_palette_and_cells(SessionModel& model, PaletteKind palette, int round);

  // The layers of one frame, bottom to top.
  struct Scene;
  void draw_arrows_and_boxes(const Scene& scene);
  void queue_cells(const Scene& scene, const Rect& clip, std::int64_t largest_slot);
  void draw_cell_text(const Scene& scene);
  void draw_round_marks(const Scene& scene) const;  // owned slots; slots sending or just arrived
  void draw_packets(const Scene& scene, const ShownState& before) const;  // `before`: the round's start
  void draw_titles(const Scene& scene) const;
  // The title drawn on `rank`'s box ("" when none fits) and where, for text `line` pixels high.
  std::string shown_title(int rank, float line, Language language, Rect& at) const;
  // Where the GPU boxes draw text: titles, cell labels, values (packet labels stay off them).
  std::vector<Rect> text_zones(const Scene& scene) const;
  // What the cells have room for: no text (crowded rings, small cells), the label line alone
  // (cells from 2.1 to 2.6 lines of text, as on the stage at 1280x720, where a label leaves a
  // band of pure colour under it; lock-step only, since a pipelined cell's middle holds its
  // pieces), or the label and the values band.
  enum class CellText { none, label, label_and_values };
  CellText cell_text(int n, float line) const;
  // The stretch of `arrow` (as fractions of its length) where a packet of `size` touches no box.
  std::pair<float, float> clear_stretch(const ArrowPath& arrow, Vec2 size) const;
  void draw_selection(const Scene& scene, int selected_gpu) const;
  // Slices in flight, pieces of every cell and the wave's caption above the ring.
  void draw_pipeline(const Scene& scene, SessionModel& model, const Rect& strip, bool text_cells);
  // Every cell's pieces (or lock-step halves) as bars between its label and its values.
  void draw_piece_bars(const Scene& scene, bool text_cells);
  PipelineScene pipeline_scene(const Scene& scene) const;
  // Whether the model's algorithm keeps to ring neighbours and sends counter-clockwise (GPU r
  // to r - 1) somewhere: then the ring's back arrows are drawn too. Worked out once per model
  // generation.
  bool sends_counter_clockwise(const SessionModel& model);
  // A click on a box toggles `selected_gpu`; a cell under the mouse gets a tooltip.
  void explain_cell_under_mouse(const Scene& scene, const Rect& area, int& selected_gpu) const;

  CellRenderer renderer_;
  CellSource cell_source_;  // after renderer_: its interop writer goes first
  PipelineOverlay pipeline_;
  RingGeometry geometry_;
  SwitchGeometry switch_;  // laid out with geometry_; drawn for a schedule through a switch
  bool switch_drawn_ = false;
  Rect geometry_view_{};  // what geometry_ was laid out for
  float geometry_line_ = 0;
  bool geometry_through_switch_ = false;
  std::vector<std::string> drawn_labels_;  // rank-major, of ImGui frame drawn_labels_frame_
  int drawn_labels_slots_ = 0;              // slots per rank in drawn_labels_
  int drawn_labels_frame_ = -1;
  int drawn_labels_ranks_ = 0;
  std::vector<DrawnArrow> drawn_arrows_;  // of the last frame, for --dump-layout
  int counter_clockwise_generation_ = -1;
  bool counter_clockwise_ = false;
  PaletteKind uploaded_palette_ = PaletteKind::standard;
  int palette_ranks_ = -1;
};

}  // namespace ringviz::gui
