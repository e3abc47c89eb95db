#include "app/gui/runtime/layout_dump.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "core/algorithms/registry.h"
#include "app/gui/compare/topology_picture.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/inspect/layout_json.h"
#include "app/gui/inspect/text_runs.h"
#include "app/gui/views/link_view.h"
#include "app/gui/text/glyph_audit.h"
#include "app/gui/text/strings.h"
#include "app/gui/views/iteration/iteration_layout.h"
#include "app/platform/gl.h"
#include "core/output/output_file.h"

namespace ringviz::gui {

namespace {

// What drew the frame and what computed the rounds, so a check on a GPU machine can tell a
// CUDA run on the NVIDIA driver from a CPU run on llvmpipe.
nlohmann::json graphics_json(GuiApp& app) {
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return {{"backend", app.model().backend_name()},
          {"built_without_cuda", app.model().built_without_cuda()},  // which CPU status the bar shows
          {"gl_context", app.host().graphics},
          {"gl_renderer", renderer ? renderer : ""}};
}

// The Compare tab, when it is the view shown: its topology, the sentence under its plot, what
// the plot's data says, and every link's load in the step the link view shows.
nlohmann::json compare_json(GuiApp& app) {
  if (app.views().current() != CentreView::compare || !app.model().ready()) return nullptr;
  CompareView& view = app.views().compare();
  const Session& session = app.model().session();
  const Config& config = session.config();
  const CostComparison* comparison = view.comparison_for(config);
  if (comparison == nullptr || comparison->sweep_fastest.empty()) return {{"error", view.error()}};
  nlohmann::json crossovers = nlohmann::json::array();
  for (const Crossover& crossover : comparison->crossovers)
    crossovers.push_back({{"bytes", crossover.bytes},
                          {"faster", std::string(algorithm_name(crossover.faster))},
                          {"slower", std::string(algorithm_name(crossover.slower))}});
  const int step = link_view_round(app.playback().moment(), session.schedule().round_count());
  const TopologyStepPicture picture =
      topology_step_picture(*comparison, *view.last_answer()->routes, session.schedule(), config.algorithm, step - 1);
  const Topology& topology = comparison->topology;
  nlohmann::json links = nlohmann::json::array();
  for (std::size_t i = 0; i < picture.loads.size(); ++i) {
    const TopologyLink& link = topology.links[i];
    links.push_back({{"from", topology.node_names[static_cast<std::size_t>(link.from)]},
                     {"to", topology.node_names[static_cast<std::size_t>(link.to)]},
                     {"bytes", picture.loads[i].bytes},
                     {"transfers", picture.loads[i].transfers},
                     {"shared", picture.loads[i].transfers > 1}});
  }
  return {{"topology_kind", view.topology().kind},
          {"topology", topology.key},
          {"topology_label", topology.label},
          {"sentence", view.sentence()},
          {"nccl_line", view.nccl_line()},
          {"fastest_smallest", std::string(algorithm_name(comparison->sweep_fastest.front()))},
          {"fastest_largest", std::string(algorithm_name(comparison->sweep_fastest.back()))},
          {"crossovers", crossovers},
          {"step", step},
          {"links", links}};
}

// The code points of the language's text (and text registered at run time) that the atlas
// lacks, as "U+4E2D 中": empty when every string the GUI can show has its glyphs.
nlohmann::json missing_glyphs_json(Language language) {
  nlohmann::json missing = nlohmann::json::array();
  for (char32_t point : missing_glyphs_now(language)) missing.push_back(describe_code_point(point));
  return missing;
}

nlohmann::json contributors_json(const RankSet& set, int ranks) {
  nlohmann::json contributors = nlohmann::json::array();
  for (int k = 0; k < ranks; ++k)
    if (set.test(static_cast<std::size_t>(k))) contributors.push_back(k);
  return contributors;
}

// The pipelined ring's wave as the view drew it (docs/architecture.md, "The pipelined ring
// view"); null in lock-step.
nlohmann::json pipeline_json(const PipelineFrame& frame, int waves) {
  if (!frame.pipelined) return nullptr;
  nlohmann::json markers = nlohmann::json::array();
  for (const PipelineMarker& marker : frame.markers)
    markers.push_back({{"channel", marker.channel},
                       {"round", marker.round},
                       {"slice", marker.slice},
                       {"src", marker.src},
                       {"dst", marker.dst},
                       {"slot", marker.slot},
                       {"kind", std::string(transfer_kind_name(marker.kind))},
                       {"rect", rect_json(marker.box)},
                       {"centre", {marker.box.centre().x, marker.box.centre().y}}});
  return {{"channels", frame.channels},
          {"slices", frame.slices},
          {"waves", waves},
          {"wave", frame.summary.wave},
          {"in_flight", frame.summary.in_flight},
          {"pieces", frame.fill.total},
          {"empty_pieces", frame.fill.empty},
          {"stage", frame.summary.wave > 0 ? nlohmann::json(wave_stage_name(frame.summary.stage)) : nlohmann::json(nullptr)},
          {"channel_shown", frame.channel_shown == kAllChannels ? nlohmann::json("all") : nlohmann::json(frame.channel_shown)},
          {"markers", markers}};
}

// Every piece of text the frame drew (text_runs.h), read from ImGui's draw data of the frame
// just rendered: tests prove from it that no text overlaps another or is cut off.
nlohmann::json texts_json() {
  nlohmann::json texts = nlohmann::json::array();
  const ImDrawData* frame = ImGui::GetDrawData();
  if (frame == nullptr) return texts;
  for (const TextRun& run : find_text_runs(*frame, *ImGui::GetIO().Fonts))
    texts.push_back({{"x", run.rect.x},
                     {"y", run.rect.y},
                     {"w", run.rect.w},
                     {"h", run.rect.h},
                     {"text", run.text},
                     {"clipped", run.clipped},
                     {"hidden", run.hidden},
                     {"pixels", run.pixels}});
  return texts;
}

}  // namespace

nlohmann::json layout_json(GuiApp& app, float width, float height) {
  const Config& config = app.model().config();
  const RingGeometry& geometry = app.geometry();
  const PanelLayout& panels = app.panels();
  const Preferences& preferences = app.preferences();
  const ViewColours& colours = view_colours(preferences.theme);
  const ShownState& shown = app.shown_state();
  const int n = config.ranks;

  nlohmann::json palette = nlohmann::json::array();
  for (const Rgb& c : rank_palette(n, preferences.palette)) palette.push_back(rgb_json(c));
  nlohmann::json gpus = nlohmann::json::array();
  for (int r = 0; r < n && r < static_cast<int>(geometry.boxes.size()); ++r) {
    const GpuBox& gpu = geometry.boxes[static_cast<std::size_t>(r)];
    nlohmann::json cells = nlohmann::json::array();
    for (int slot = 0; slot < geometry.slots; ++slot) {
      const Rect painted = geometry.painted_cell(r, slot);
      const RankSet& set = shown.provenance.at(r, slot);
      const std::uint32_t flags = shown.cells.flags(r, slot);
      const nlohmann::json contributors = contributors_json(set, n);
      const char* state = (flags & kCellEmpty) ? "empty" : (flags & kCellStale) ? "stale" : "filled";
      nlohmann::json cell = {{"slot", slot},
                             {"rect", rect_json(geometry.cell(r, slot))},
                             {"painted", rect_json(painted)},
                             {"centre", {painted.centre().x, painted.centre().y}},
                             {"state", state},
                             {"owned", (flags & kCellOwned) && (flags & kCellComplete)},
                             {"contributors", contributors},
                             {"label", app.drawn_cell_label(r, slot)}};
      // Pipelined: each piece's own contributors, channel-major (piece = channel x slices + slice).
      if (shown.provenance.pieces_per_slot() > 1) {
        nlohmann::json pieces = nlohmann::json::array();
        nlohmann::json rects = nlohmann::json::array();
        const PieceBars& bars = app.pipeline_frame().bars;
        for (int piece = 0; piece < shown.provenance.pieces_per_slot(); ++piece) {
          pieces.push_back(contributors_json(shown.provenance.at(r, slot, piece), n));
          if (bars.drawn) rects.push_back(rect_json(piece_rect(geometry, bars, r, slot, piece)));
        }
        cell["pieces"] = pieces;
        if (bars.drawn) cell["piece_rects"] = rects;  // one band per GPU, GPU 0 at the top
      }
      cells.push_back(std::move(cell));
    }
    gpus.push_back({{"rank", r}, {"box", rect_json(gpu.box)}, {"cells_area", rect_json(gpu.cells)}, {"cells", cells}});
  }
  // The ring arrows as drawn: both ways round where the algorithm sends both ways.
  nlohmann::json arrows = nlohmann::json::array();
  for (const DrawnArrow& arrow : app.drawn_arrows())
    arrows.push_back({{"src", arrow.src},
                      {"dst", arrow.dst},
                      {"direction", arrow.counter_clockwise ? "counter-clockwise" : "clockwise"},
                      {"busy", arrow.busy},
                      {"middle", {arrow.middle.x, arrow.middle.y}}});
  // The NVSwitch of an in-switch reduction (nvls): its box, its cell per slot, and the ends and
  // middle of each spoke (GPU into the switch: "up"; out of it: "down"), which the packets and
  // the pipeline's markers ride.
  nlohmann::json in_switch = nullptr;
  if (const SwitchGeometry* drawn = app.drawn_switch()) {
    nlohmann::json switch_cells = nlohmann::json::array(), spokes = nlohmann::json::array();
    for (const Rect& cell : drawn->cells) switch_cells.push_back(rect_json(cell));
    for (std::size_t r = 0; r < drawn->up.size(); ++r)
      for (const bool up : {true, false}) {
        const ArrowPath& spoke = (up ? drawn->up : drawn->down)[r];
        const Vec2 middle = spoke.at(0.5f), from = spoke.at(0.0f), to = spoke.at(1.0f);
        spokes.push_back({{"gpu", r},
                          {"way", up ? "up" : "down"},
                          {"middle", {middle.x, middle.y}},
                          {"from", {from.x, from.y}},
                          {"to", {to.x, to.y}}});
      }
    in_switch = {{"box", rect_json(drawn->box)}, {"cells", switch_cells}, {"spokes", spokes}};
  }
  const RoundMoment moment = app.playback().moment();
  return {
      {"schema", "ringviz.layout/1"},
      {"window", {{"width", width}, {"height", height}}},
      {"ui_scale", app.ui_scale()},
      {"config",
       {{"op", std::string(op_name(config.op))},
        {"order", std::string(order_name(config.order))},
        {"ranks", n},
        {"count", config.count},
        {"dtype", std::string(dtype_name(config.dtype))}}},
      {"position", app.playback().position()},
      {"rest_round", moment.rest_round},
      {"rounds", app.model().session().round_count()},
      {"theme", std::string(theme_name(preferences.theme))},
      {"language", std::string(language_name(app.language()))},
      {"missing_glyphs", missing_glyphs_json(app.language())},
      {"fallback_glyphs_drawn", fallback_glyphs_last_frame()},
      {"presentation", app.presentation()},
      {"view", std::string(centre_view_name(app.views().current()))},
      // The lesson's scene and step on screen; the recorder fills it in (layout_dump.h).
      {"lesson", nullptr},
      {"notices", app.notices()},
      // The backend's few words in the controls bar and where they were drawn (no rect: no room).
      {"status", app.controls().status().text.empty()
                     ? nlohmann::json{{"text", ""}, {"rect", nullptr}}
                     : nlohmann::json{{"text", app.controls().status().text},
                                      {"rect", rect_json(app.controls().status().rect)}}},
      {"cell_source", cell_source_name(app.cell_source().kind())},
      {"cell_source_reason", app.cell_source().reason()},
      {"palette", std::string(palette_name(preferences.palette))},
      {"colours",
       {{"ranks", palette},
        {"hatch", {rgb_json(colours.hatch_a), rgb_json(colours.hatch_b)}},
        {"view_background", rgb_json(colours.view_background)},
        {"box_background", rgb_json(colours.box_background)},
        {"stale_target", rgb_json(colours.stale_target)},
        {"stale_amount", colours.stale_amount}}},
      {"panels", panels_json(panels)},
      {"replay", app.replay().active() ? nlohmann::json{{"file", app.replay().path()},
                                                         {"pacing", std::string(pacing_name(app.replay().pacing()))},
                                                         {"mismatch_round", app.replay().mismatch()
                                                                                ? nlohmann::json(app.replay().mismatch()->round)
                                                                                : nlohmann::json(nullptr)}}
                                       : nlohmann::json(nullptr)},
      {"grid", geometry.grid},
      {"ring_fits", geometry.fits},  // false: the ring view shows its "too small" notice instead
      {"cell_gap", geometry.cell_gap},
      {"gpus", gpus},
      {"arrows", arrows},
      {"switch", in_switch},
      {"pipeline", pipeline_json(app.pipeline_frame(), app.model().session().round_count())},
      {"graphics", graphics_json(app)},
      {"memory", memory_layout_json(app.views().memory())},
      {"compare", compare_json(app)},
      {"texts", texts_json()},
  };
}

bool write_layout_json(GuiApp& app, float width, float height, const std::string& path, std::string& error) {
  return write_output_file(path, layout_json(app, width, height).dump(1) + "\n", error);
}

}  // namespace ringviz::gui
