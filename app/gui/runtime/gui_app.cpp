#include "app/gui/runtime/gui_app.h"
#include "core/algorithms/registry.h"
#include "app/gui/text/font_loader.h"

#include <algorithm>
#include <cmath>

#include <GLFW/glfw3.h>  // key codes only: ImGui 1.86 indexes keys by the platform's codes
#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/replay/host_overlay.h"
#include "app/gui/replay/job_caption.h"
#include "app/gui/replay/replay_timing.h"
#include "app/gui/layout/stage_layout.h"
#include "app/gui/layout/presentation.h"
#include "app/gui/text/fonts.h"
#include "app/gui/text/strings.h"
#include "app/gui/views/too_small_notice.h"
#include "core/training/transformer_presets.h"

namespace ringviz::gui {

namespace {

// Whether the ring already runs this collective (its inputs aside: the memory view asks for the
// shape of a bucket's collective, not for particular values).
bool same_collective(const Config& a, const Config& b) {
  return a.op == b.op && a.algorithm == b.algorithm && a.order == b.order && a.ranks == b.ranks &&
         a.count == b.count && a.dtype == b.dtype && a.reduce == b.reduce && a.channels == b.channels &&
         a.slices == b.slices && a.root == b.root;
}

}  // namespace

GuiApp::GuiApp(const ShowRequest& request, BackendChoice backend, Preferences preferences, Host host,
               std::optional<ReplaySource> replay, std::optional<CollectivePlan> plan)
    : opening_view_(request.view),
      opening_replay_(std::move(replay)),
      opening_plan_(std::move(plan)),
      preferences_(preferences),
      host_(std::move(host)),
      setup_(request.config, backend) {
  playback_.set_speed(preferences_.speed);
  playback_.set_loop(preferences_.loop);
  views_.set_current(request.view);
  views_.compare().set_topology(request.compare_topology);
  const Config& draft = setup_.draft();
  views_.memory().set_model(7'000'000'000, std::min(draft.ranks, MemoryView::kMaxGpus),
                            {Strategy::ddp, Strategy::zero2}, MemoryConvention::paper, draft.order);
  views_.training().configure(std::min(draft.ranks, TrainingView::kMaxGpus), DType::f32, draft.order, 100,
                              {TrainStrategy::ddp, TrainStrategy::zero2, TrainStrategy::nosync});
  if (!request.memory_model.empty()) views_.memory().show_iteration_of(find_transformer_preset(request.memory_model));
}

bool GuiApp::init(std::string& error) {
  if (!ring_.init(error)) return false;
  const bool built = opening_plan_ ? model_.rebuild(std::move(*opening_plan_), setup_.backend(), error)
                                   : model_.rebuild(setup_.draft(), setup_.backend(), error);
  opening_plan_.reset();
  if (!built) return false;
  note_integer_overflow();
  playback_.set_round_count(model_.session().round_count());
  if (opening_replay_) {
    ReplaySource replay = std::move(*opening_replay_);
    opening_replay_.reset();
    if (!open_replay(std::move(replay), error)) return false;
    set_centre_view(opening_view_);  // opening shows the ring; --view still chooses the first view
  }
  return true;
}

bool GuiApp::open_replay(const std::string& path, std::string& error) {
  ReplaySource replay;
  try {
    replay.open(path);
  } catch (const InputError& problem) {
    error = problem.what();
    return false;
  }
  return open_replay(std::move(replay), error);
}

bool GuiApp::open_replay(ReplaySource replay, std::string& error) {
  const Config& config = replay.config();
  if (!replay_.active()) {
    live_config_ = setup_.draft();
    live_backend_ = setup_.backend();
  }
  // The recorded buffers are compared with, and completed by, the CPU engine: bit-identical
  // to every backend by construction (docs/architecture.md, "Collective semantics").
  if (!model_.rebuild(config, BackendChoice::cpu, error)) {
    error = replay.path() + ": " + error;
    return false;
  }
  setup_.accepted(config, BackendChoice::cpu);
  replay_ = std::move(replay);
  replay_.check_against(model_.session());
  model_.show_recording(replay_.shared_recording());
  playback_.set_round_count(model_.session().round_count());
  playback_.set_round_seconds(replay_.round_seconds());
  playback_.go_to_start();
  if (selected_gpu_ >= config.ranks) selected_gpu_ = kNoSelection;
  // A job opens on its timeline, where the user picks the collective to step.
  set_centre_view(replay_.job() ? CentreView::job : CentreView::ring);
  // A job that measured its memory opens the Memory view on the measurement, should it be shown.
  if (replay_.job() && !replay_.job()->memory.empty()) views_.memory().set_mode(MemoryMode::measured);
  transfers_.follow_current_round();
  if (replay_.mismatch()) add_notice(mismatch_text(*replay_.mismatch(), config.dtype, language_));
  return true;
}

void GuiApp::close_replay() {
  if (!replay_.active()) return;
  replay_.close();
  playback_.set_round_seconds({});
  apply_config(live_config_, live_backend_);
}

void GuiApp::set_pacing(Pacing pacing) {
  replay_.set_pacing(pacing);
  if (replay_.active()) playback_.set_round_seconds(replay_.round_seconds());
}

bool GuiApp::draw_replay_header() {
  const ReplayPanelAction action = replay_panel_.draw(replay_, preferences_.theme, language_);
  if (action.pacing_changed) set_pacing(replay_.pacing());
  if (action.close) close_replay();
  if (action.select) show_job_collective(*action.select);
  if (action.open) {
    std::string error;
    if (!open_replay(*action.open, error)) add_notice(error);
  }
  return replay_.active();
}

bool GuiApp::show_job_collective(std::size_t index) {
  const std::size_t previous = replay_.selected();
  replay_.select(index);
  std::string error;
  // Stepped on the CPU like every replay: the job has no data, only the schedule's contributors.
  if (!model_.rebuild(replay_.config(), BackendChoice::cpu, error)) {
    replay_.select(previous);
    std::string ignored;
    model_.rebuild(replay_.config(), BackendChoice::cpu, ignored);
    add_notice(error);
    return false;
  }
  setup_.accepted(replay_.config(), BackendChoice::cpu);
  model_.show_recording(replay_.shared_recording());
  playback_.set_round_count(model_.session().round_count());
  playback_.set_round_seconds(replay_.round_seconds());
  playback_.go_to_start();
  if (selected_gpu_ >= replay_.config().ranks) selected_gpu_ = kNoSelection;
  set_centre_view(CentreView::ring);
  transfers_.follow_current_round();
  return true;
}

std::string GuiApp::measured_caption_line() const {
  if (replay_.job()) return job_caption(replay_, language_);
  const RoundMoment moment = playback_.moment();
  if (!replay_.recording() || moment.round == 0) return "";
  const Schedule& schedule = model_.session().schedule();
  return measured_caption(*replay_.recording(), schedule.rounds[static_cast<std::size_t>(moment.round - 1)], moment.round,
                          language_);
}

void GuiApp::note_integer_overflow() {
  const std::optional<IntegerOverflow>& overflow = model_.integer_overflow();
  std::string notice;
  if (overflow) {
    const Config& config = model_.config();
    const std::string type(dtype_name(config.dtype));
    notice = format(text().integer_overflow, type.c_str(), std::string(reduce_op_name(config.reduce)).c_str(),
                    static_cast<long long>(overflow->element), overflow->exact.c_str());
  }
  // Once per collective that wraps: rebuilding it for another view or round says nothing new.
  if (notice != overflow_notice_ && !notice.empty()) add_notice(notice);
  overflow_notice_ = std::move(notice);
}

void GuiApp::add_notice(std::string notice) {
  if (notice.empty()) return;
  // A notice may quote a file name or a lesson's text in any script: the next atlas covers it.
  register_glyph_text(notice);
  notices_.push_back(std::move(notice));
}

bool GuiApp::apply_config(const Config& config, BackendChoice backend) {
  if (replay_.active()) return false;
  std::string error;
  const double position = playback_.position();
  const bool was_playing = playback_.playing();
  if (!model_.rebuild(config, backend, error)) {
    setup_.rejected(error);
    return false;
  }
  setup_.accepted(config, backend);
  note_integer_overflow();
  // Keep the round on screen where the new collective has it; otherwise its last round.
  const int rounds = model_.session().round_count();
  playback_.set_round_count(rounds);
  playback_.seek(std::min(std::floor(position), static_cast<double>(rounds)));
  if (was_playing) playback_.play();
  if (selected_gpu_ >= config.ranks) selected_gpu_ = kNoSelection;
  transfers_.follow_current_round();
  return true;
}

void GuiApp::advance(double seconds) {
  for (FrameExtension* extension : extensions_) extension->before_frame(*this, seconds);
  playback_.advance(seconds);
  views_.advance(seconds);
  preferences_.speed = playback_.speed();
  preferences_.loop = playback_.loop();
}

bool GuiApp::animating() const {
  if (playback_.animating() || views_.animating()) return true;
  for (const FrameExtension* extension : extensions_)
    if (extension->animating()) return true;
  return false;
}

void GuiApp::after_render(int width, int height) {
  for (FrameExtension* extension : extensions_) extension->after_render(*this, width, height);
}

const ShownState& GuiApp::shown_state() { return model_.state_at(playback_.moment().rest_round); }

FrameContext GuiApp::frame_context() const {
  FrameContext frame;
  frame.theme = preferences_.theme;
  frame.palette = preferences_.palette;
  frame.ui_scale = ui_scale();
  frame.presentation = presentation_;
  frame.moment = playback_.moment();
  frame.language = language_;
  return frame;
}

ViewContext GuiApp::view_context() {
  ViewContext context;
  context.theme = preferences_.theme;
  context.palette = preferences_.palette;
  context.scale = ui_scale();
  context.language = language_;
  context.session = model_.ready() ? &model_.session() : nullptr;
  context.moment = playback_.moment();
  context.wait_for_answers = !host_.interactive;
  context.presentation = presentation_;
  if (ring_.cell_source().decided()) context.cell_source = ring_.cell_source().reason();
  context.recorded_round_us = replay_.recorded_round_us();
  context.open_in_ring = [this](const Config& config, const std::string& notice) {
    if (!apply_config(config, setup_.backend())) return;
    playback_.go_to_start();
    set_centre_view(CentreView::ring);
    add_notice(notice);
  };
  if (replay_.job()) {
    context.job = replay_.job();
    context.job_table = replay_.job_table();
    context.job_collectives = &replay_.collectives();
    context.job_selected = replay_.selected();
    context.open_job_collective = [this](std::size_t index) { show_job_collective(index); };
  }
  context.choose_algorithm = [this](Algorithm algorithm) {
    Config config = setup_.draft();
    config.algorithm = algorithm;
    // The trees only have AllReduce: switch the operation rather than refuse the click.
    if (!algorithm_supports(algorithm, config.op)) config.op = Op::allreduce;
    apply_config(config, setup_.backend());
  };
  return context;
}

void GuiApp::handle_keys() {
  if (!host_.interactive) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;  // typing a number in a field is not a shortcut
  auto pressed = [](int key, bool repeat = false) { return ImGui::IsKeyPressed(key, repeat); };
  if (pressed(GLFW_KEY_SPACE)) transport().toggle_play();
  if (pressed(GLFW_KEY_RIGHT, true)) transport().step_forward();
  if (pressed(GLFW_KEY_LEFT, true)) transport().step_back();
  if (pressed(GLFW_KEY_HOME)) transport().go_to_start();
  if (pressed(GLFW_KEY_END)) transport().go_to_end();
  // The speed is the ring's playback's; the memory view's clock takes it over (transport()).
  if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD)) playback_.faster();
  if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT)) playback_.slower();
  if (pressed(GLFW_KEY_F) && host_.toggle_fullscreen) host_.toggle_fullscreen();
  if (pressed(GLFW_KEY_H)) preferences_.show_help = !preferences_.show_help;
  if (pressed(GLFW_KEY_S)) apply_config(setup_.with_pipeline_toggled(setup_.draft()), setup_.backend());
  const Op ops[] = {Op::allgather, Op::reducescatter, Op::allreduce};
  for (int i = 0; i < 3; ++i) {
    if (!pressed(GLFW_KEY_1 + i) && !pressed(GLFW_KEY_KP_1 + i)) continue;
    Config config = setup_.draft();
    config.op = ops[i];
    apply_config(config, setup_.backend());
  }
  preferences_.speed = playback_.speed();
}

bool GuiApp::memory_stepper_shown() {
  return views_.current() == CentreView::memory && views_.memory().mode() == MemoryMode::model_states;
}

Playback& GuiApp::transport() {
  if (!memory_stepper_shown()) return playback_;
  Playback& clock = views_.memory().transport();
  // One speed and one loop for both clocks: the controls bar's slider means the same thing
  // on every tab.
  clock.set_speed(playback_.speed());
  clock.set_loop(playback_.loop());
  return clock;
}

void GuiApp::build_frame(float width, float height) {
  // The panels draw no backgrounds of their own: one clear paints them all (see BackgroundFills).
  fills_.begin_frame();
  prefer_nearest_font_sampling();
  const ImVec4 panel = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  fills_.queue(ImGui::GetBackgroundDrawList(), {0, 0, width, height},
               Rgb{static_cast<std::uint8_t>(panel.x * 255.0f + 0.5f), static_cast<std::uint8_t>(panel.y * 255.0f + 0.5f),
                   static_cast<std::uint8_t>(panel.z * 255.0f + 0.5f)});
  handle_keys();
  if (too_small(width, height)) {
    panels_ = {};  // nothing but the notice: panels squeezed below this size overlap or vanish
    draw_window_too_small(width, height, least_window(ui_scale(), stage_ ? 0.0f : ControlsBar::least_width(language_)),
                          language_);
    return;
  }
  for (FrameExtension* extension : extensions_) extension->before_panels(*this);
  panels_ = stage_          ? layout_stage_panels(width, height, ui_scale())
            : presentation_ ? layout_presentation_panels(width, height, ui_scale())
                            : layout_panels(width, height, ui_scale());
  for (FrameExtension* extension : extensions_)
    panels_.view.h = std::max(0.0f, panels_.view.h - extension->reserve_below_view(*this, panels_));
  if (replay_.capture()) {
    const float height = timeline_height(model_.config().ranks, ui_scale(), ImGui::GetTextLineHeightWithSpacing(), panels_.view.h);
    panels_.view.h -= height;
    panels_.timeline = {panels_.view.x, panels_.view.y + panels_.view.h, panels_.view.w, height};
  }
  if (panels_.setup.w > 0) {
    SetupPanelHooks hooks;
    hooks.apply = [this](const Config& config, BackendChoice backend) { return apply_config(config, backend); };
    hooks.extension_settings = [this] {
      for (FrameExtension* extension : extensions_) extension->setup_panel_end(*this);
    };
    hooks.header = [this] { return draw_replay_header(); };
    setup_.draw(panels_.setup, model_, preferences_, language_, hooks);
  }
  draw_centre();
  if (panels_.timeline.h > 0 && replay_.capture())
    timeline_.draw(panels_.timeline, *replay_.capture(), playback_.position(), frame_context());
  if (panels_.round_table.w > 0) transfers_.draw(panels_.round_table, model_, frame_context(), selected_gpu_);
  if (panels_.traffic.w > 0) traffic_.draw(panels_.traffic, model_, frame_context(), selected_gpu_);
  if (!stage_) {
    Playback& clock = transport();
    const std::vector<Rgb> beats =
        memory_stepper_shown() ? views_.memory().beat_colours(view_colours(preferences_.theme)) : std::vector<Rgb>{};
    controls_.draw(panels_.controls, model_, clock, preferences_, notices_, frame_context(),
                   memory_stepper_shown() ? &beats : nullptr);
    if (&clock != &playback_) {
      playback_.set_speed(clock.speed());
      playback_.set_loop(clock.loop());
    }
  }
  if (preferences_.show_help && !stage_)
    help_.draw(width, height, ui_scale(), language_, model_.config(), model_.backend_notice(language_), preferences_.show_help);
  for (FrameExtension* extension : extensions_) extension->after_panels(*this, panels_);
}

void GuiApp::draw_centre() {
  // The stage has no tabs (the recording chooses the view), and its header is drawn by the
  // stage's overlay.
  const Rect below = stage_ ? Rect{panels_.caption.x, panels_.caption.y, panels_.caption.w,
                                   panels_.view.bottom() - panels_.caption.y}
                            : views_.draw_tab_bar(panels_, ui_scale(), language_);
  if (views_.current() == CentreView::ring) {
    if (!stage_) {
      // A long explanation (a pipelined ring, --reduce max) takes the lines it needs, up to a
      // third of the centre, instead of being cut at the caption's usual height.
      const std::string measured = measured_caption_line();
      const float needed = caption_.needed_height(panels_.caption.w, model_, frame_context(), measured);
      const float most = std::round((panels_.caption.h + panels_.view.h) / 3);
      const float grow = std::clamp(needed - panels_.caption.h, 0.0f, std::max(0.0f, most - panels_.caption.h));
      panels_.caption.h += grow;
      panels_.view.y += grow;
      panels_.view.h -= grow;
      caption_.draw(panels_.caption, model_, frame_context(), measured);
    }
    ring_.draw(panels_.view, model_, frame_context(), selected_gpu_, fills_);
    add_notice(ring_.cell_source().take_notice());
    if (replay_.capture()) draw_host_overlay(ring_.geometry(), *replay_.capture(), panels_.view, ui_scale());
    return;
  }
  if (views_.current() == CentreView::devices) panels_.devices = below;
  views_.memory().set_audience(stage_ || presentation_);
  if (memory_stepper_shown()) {
    draw_memory_with_ring(below);
    return;
  }
  views_.draw_current(below, view_context());
}

void GuiApp::draw_memory_with_ring(const Rect& area) {
  // One stepper, two pictures: the bars of DDP beside ZeRO on the left, and on the right the
  // ring running the collective of the same moment, round by round.
  MemoryView& memory = views_.memory();
  const float line = ImGui::GetTextLineHeight();
  const float ring_w = std::round(std::clamp(area.h * 0.8f, area.w * 0.24f, area.w * 0.34f));
  const bool with_ring = area.w >= line * 40 && area.h >= line * 10;
  const Rect bars{area.x, area.y, with_ring ? area.w - ring_w : area.w, area.h};
  if (with_ring && !memory.led_by_ring()) {
    if (const std::optional<MemoryView::RingCall> call = memory.ring_call()) {
      if (!same_collective(call->config, model_.config())) apply_config(call->config, setup_.backend());
      playback_.seek(call->position);
    }
  }
  memory.draw(bars, view_context());
  if (!with_ring) return;
  const Rect column{bars.right(), area.y, ring_w, area.h};
  const std::string words = memory.ring_words();
  float words_h = 0;
  if (!words.empty()) {
    const float wrap = column.w - line;
    words_h = ImGui::CalcTextSize(words.c_str(), nullptr, false, wrap).y + line * 0.6f;
    begin_panel("##memory_ring_words", {column.x, column.y, column.w, words_h},
                ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse |
                    ImGuiWindowFlags_NoInputs);
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(column.x, column.y), ImVec2(column.right(), column.y + words_h),
                                              to_imcol(view_colours(preferences_.theme).view_background));
    ImGui::SetCursorScreenPos(ImVec2(column.x + line * 0.5f, column.y + line * 0.3f));
    ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + wrap);  // a window-local position
    ImGui::TextUnformatted(words.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
  }
  ring_.draw({column.x, column.y + words_h, column.w, column.h - words_h}, model_, frame_context(), selected_gpu_, fills_);
}

}  // namespace ringviz::gui
