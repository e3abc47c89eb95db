#include "app/gui/runtime/gui_app.h"

#include "app/gui/text/fonts.h"

#include <cmath>

#include <GLFW/glfw3.h>  // key codes only: ImGui 1.86 indexes keys by the platform's codes
#include <imgui.h>

#include "app/gui/teaching/presentation.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

GuiApp::GuiApp(Config config, BackendChoice backend, Preferences preferences, Host host)
    : preferences_(preferences), host_(std::move(host)), draft_(std::move(config)),
      backend_choice_(backend) {
  playback_.set_speed(preferences_.speed);
  playback_.set_loop(preferences_.loop);
  views_.set_current(startup_view());
  views_.memory().set_model(7'000'000'000, std::min(draft_.ranks, MemoryView::kMaxGpus),
                            {Strategy::ddp, Strategy::zero2}, MemoryConvention::paper, draft_.order);
  views_.training().configure(std::min(draft_.ranks, TrainingView::kMaxGpus), DType::f32, draft_.order, 100,
                              {TrainStrategy::ddp, TrainStrategy::zero2, TrainStrategy::nosync});
}

bool GuiApp::init(std::string& error) {
  if (!renderer_.init(error)) return false;
  if (!model_.rebuild(draft_, backend_choice_, error)) return false;
  playback_.set_round_count(model_.session().round_count());
  return true;
}

void GuiApp::add_notice(std::string notice) {
  if (!notice.empty()) notices_.push_back(std::move(notice));
}

bool GuiApp::apply_config(const Config& config, BackendChoice backend) {
  std::string error;
  const double position = playback_.position();
  const bool was_playing = playback_.playing();
  if (!model_.rebuild(config, backend, error)) {
    setup_error_ = error;
    return false;
  }
  setup_error_.clear();
  draft_ = config;
  backend_choice_ = backend;
  // Keep the round on screen where the new collective has it; otherwise its last round.
  const int rounds = model_.session().round_count();
  playback_.set_round_count(rounds);
  playback_.seek(std::min(std::floor(position), static_cast<double>(rounds)));
  if (was_playing) playback_.play();
  if (selected_gpu_ >= config.ranks) selected_gpu_ = kNoSelection;
  table_scrolled_round_ = -1;
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

void GuiApp::sync_palette_and_cells() {
  const int ranks = model_.config().ranks;
  if (palette_ranks_ != ranks || uploaded_palette_ != preferences_.palette) {
    renderer_.upload_palette(rank_palette(ranks, preferences_.palette));
    palette_ranks_ = ranks;
    uploaded_palette_ = preferences_.palette;
  }
  const int round = playback_.moment().rest_round;
  if (uploaded_round_ != round || uploaded_generation_ != model_.generation()) {
    renderer_.upload(model_.state_at(round).cells);
    uploaded_round_ = round;
    uploaded_generation_ = model_.generation();
  }
}

void GuiApp::handle_keys() {
  if (!host_.interactive) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;  // typing a number in a field is not a shortcut
  auto pressed = [](int key, bool repeat = false) { return ImGui::IsKeyPressed(key, repeat); };
  if (pressed(GLFW_KEY_SPACE)) playback_.toggle_play();
  if (pressed(GLFW_KEY_RIGHT, true)) playback_.step_forward();
  if (pressed(GLFW_KEY_LEFT, true)) playback_.step_back();
  if (pressed(GLFW_KEY_HOME)) playback_.go_to_start();
  if (pressed(GLFW_KEY_END)) playback_.go_to_end();
  if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD)) playback_.faster();
  if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT)) playback_.slower();
  if (pressed(GLFW_KEY_F) && host_.toggle_fullscreen) host_.toggle_fullscreen();
  if (pressed(GLFW_KEY_H)) preferences_.show_help = !preferences_.show_help;
  const Op ops[] = {Op::allgather, Op::reducescatter, Op::allreduce};
  for (int i = 0; i < 3; ++i) {
    if (!pressed(GLFW_KEY_1 + i) && !pressed(GLFW_KEY_KP_1 + i)) continue;
    Config config = draft_;
    config.op = ops[i];
    apply_config(config, backend_choice_);
  }
  preferences_.speed = playback_.speed();
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
  for (FrameExtension* extension : extensions_) extension->before_panels(*this);
  panels_ = presentation_ ? layout_presentation_panels(width, height, ui_scale())
                          : layout_panels(width, height, ui_scale());
  for (FrameExtension* extension : extensions_)
    panels_.view.h = std::max(0.0f, panels_.view.h - extension->reserve_below_view(*this, panels_));
  if (panels_.setup.w > 0) draw_setup_panel(panels_.setup);
  draw_centre();
  if (panels_.round_table.w > 0) draw_round_table(panels_.round_table);
  if (panels_.traffic.w > 0) draw_traffic_panel(panels_.traffic);
  draw_controls(panels_.controls);
  if (preferences_.show_help) draw_help_window(width, height);
  for (FrameExtension* extension : extensions_) extension->after_panels(*this, panels_);
}

}  // namespace ringviz::gui
