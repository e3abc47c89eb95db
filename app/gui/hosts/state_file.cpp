#include "app/gui/hosts/state_file.h"

#include <nlohmann/json.hpp>

#include "app/gui/inspect/item_marks.h"
#include "app/gui/inspect/layout_json.h"
#include "app/gui/render/theme.h"
#include "app/gui/text/strings.h"
#include "core/output/output_file.h"

namespace ringviz::gui {

namespace {

// The memory view's clock: what Space, the arrows and the controls bar drive on its tab.
nlohmann::json memory_json(MemoryView& memory) {
  Playback& clock = memory.transport();
  return {{"position", clock.position()}, {"beats", clock.round_count()}, {"playing", clock.playing()},
          {"speed", clock.speed()},
          {"at_rest", memory.at_rest()}, {"step", memory.step()}};
}

// The one word a test checks first; the flags below say which modes are on together.
std::string mode_name(const StateSources& sources) {
  if (sources.extras && sources.extras->lessons.active()) return "lesson";
  if (sources.classroom && sources.classroom->predicting()) return "predict";
  if (sources.classroom && sources.classroom->presenting()) return "presentation";
  return "normal";
}

// Rectangles that are not ImGui items: the GPU boxes and, in predict mode, the cells of the GPU
// asked about (clicking one answers the question).
void mark_geometry(GuiApp& app, const StateSources& sources) {
  const RingGeometry& geometry = app.geometry();
  if (app.views().current() != CentreView::ring || !geometry.fits) return;
  for (std::size_t r = 0; r < geometry.boxes.size(); ++r) mark_rect("gpu." + std::to_string(r), geometry.boxes[r].box);
  if (!sources.classroom || !sources.classroom->predicting()) return;
  const auto& pending = sources.classroom->quiz().pending();
  if (!pending || pending->gpu >= geometry.ranks) return;
  for (int slot = 0; slot < geometry.slots; ++slot)
    mark_rect("predict.answer." + std::to_string(slot), geometry.painted_cell(pending->gpu, slot));
}

nlohmann::json predict_json(const StateSources& sources) {
  if (!sources.classroom || !sources.classroom->predicting()) return nullptr;
  const PredictQuiz& quiz = sources.classroom->quiz();
  nlohmann::json json = {{"right", quiz.right()}, {"answered", quiz.answered()}, {"pending", nullptr}};
  if (quiz.pending())
    json["pending"] = {{"round", quiz.pending()->round}, {"gpu", quiz.pending()->gpu}, {"slots", quiz.pending()->slots}};
  return json;
}

}  // namespace

StateFileWriter::StateFileWriter(std::string path) : path_(std::move(path)) { set_item_marks_enabled(enabled()); }

void StateFileWriter::before_frame() {
  if (enabled()) clear_item_marks();
}

void StateFileWriter::after_frame(GuiApp& app, const StateSources& sources, int width, int height) {
  if (!enabled()) return;
  ++frame_;
  mark_geometry(app, sources);
  nlohmann::json items = nlohmann::json::object();
  for (const auto& [name, rect] : item_marks()) items[name] = rect_json(rect);
  const Config& config = app.model().config();
  const Playback& playback = app.playback();
  const bool lesson = sources.extras && sources.extras->lessons.active();
  const nlohmann::json json = {
      {"format", "ringviz.state/1"},
      {"frame", frame_},
      {"window", {{"w", width}, {"h", height}}},
      {"fullscreen", sources.fullscreen},
      {"input_events", sources.input_events},
      {"frame_path", sources.frame_path},
      {"pixels_redrawn", sources.pixels_redrawn},
      {"view", std::string(centre_view_name(app.views().current()))},
      {"op", std::string(op_name(config.op))},
      {"gpus", config.ranks},
      {"count", config.count},
      {"job_collective", app.replay().job() ? nlohmann::json(app.replay().selected()) : nlohmann::json(nullptr)},
      {"pipelined", config.slices > 1 || config.channels > 1},
      {"position", playback.position()},
      {"round", playback.moment().rest_round},
      {"rounds", playback.round_count()},
      {"playing", playback.playing()},
      {"speed", playback.speed()},
      {"language", std::string(language_name(app.language()))},
      {"mode", mode_name(sources)},
      {"presentation", app.presentation()},
      {"ui_scale", app.ui_scale()},
      {"predict", predict_json(sources)},
      {"lesson", lesson ? nlohmann::json(sources.extras->lessons.lesson().source) : nlohmann::json(nullptr)},
      {"recording", sources.extras && sources.extras->recorder.recording()},
      {"help", app.preferences().show_help},
      {"theme", std::string(theme_name(app.preferences().theme))},
      {"view_background", rgb_json(view_colours(app.preferences().theme).view_background)},
      {"highlighted_gpu", app.selected_gpu() >= 0 ? nlohmann::json(app.selected_gpu()) : nlohmann::json(nullptr)},
      {"panels", panels_json(app.panels())},
      {"items", items},
      {"memory", memory_json(app.views().memory())},
  };
  std::string error;
  if (!write_output_file(path_, json.dump(1) + "\n", error) && !reported_) {
    reported_ = true;
    app.add_notice(error);
  }
}

}  // namespace ringviz::gui
