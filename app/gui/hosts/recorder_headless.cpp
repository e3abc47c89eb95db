// `ringviz record`: the GUI drawn headless into an offscreen framebuffer on a deterministic
// clock, frame after frame, into ffmpeg (or PNG files). The wall clock is only read to report
// how fast it went.
#include "app/gui/hosts/recorder_headless.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include "app/gui/text/fonts.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/runtime/layout_dump.h"
#include "app/gui/teaching/lesson_player.h"
#include "app/gui/record/recorder.h"
#include "app/gui/text/strings.h"
#include "app/platform/gl.h"
#include "app/platform/headless_context.h"
#include "app/platform/offscreen_target.h"

namespace ringviz::gui {

namespace {

constexpr double kLeadSeconds = 1.0;  // the inputs, before the first round moves
constexpr double kTailSeconds = 2.0;  // the result, after the last round lands
constexpr int kSettleFrames = 3;      // ImGui's tables and auto-sized windows settle first

// One frame of the GUI into `target`. `frame_seconds` only feeds ImGui's own clock (which must
// advance); the animation is wherever the caller put the lesson clock or the timeline.
// FNV-1a over raw bytes: enough to tell whether two frames' draw data are the same.
std::uint64_t hash_bytes(std::uint64_t hash, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  return hash;
}

// Everything that decides the pixels of a frame: ImGui's vertices, indices and draw commands,
// and the state behind the cell renderer's callback (the timeline position and the session).
std::uint64_t frame_fingerprint(GuiApp& app, const ImDrawData& draw) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  const double position = app.playback().position();
  const int generation = app.model().generation();
  hash = hash_bytes(hash, &position, sizeof position);
  hash = hash_bytes(hash, &generation, sizeof generation);
  for (int i = 0; i < draw.CmdListsCount; ++i) {
    const ImDrawList& list = *draw.CmdLists[i];
    hash = hash_bytes(hash, list.VtxBuffer.Data, static_cast<std::size_t>(list.VtxBuffer.size_in_bytes()));
    hash = hash_bytes(hash, list.IdxBuffer.Data, static_cast<std::size_t>(list.IdxBuffer.size_in_bytes()));
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      hash = hash_bytes(hash, &cmd.ClipRect, sizeof cmd.ClipRect);
      hash = hash_bytes(hash, &cmd.TextureId, sizeof cmd.TextureId);
      hash = hash_bytes(hash, &cmd.VtxOffset, sizeof cmd.VtxOffset);
      hash = hash_bytes(hash, &cmd.IdxOffset, sizeof cmd.IdxOffset);
      hash = hash_bytes(hash, &cmd.ElemCount, sizeof cmd.ElemCount);
      hash = hash_bytes(hash, &cmd.UserCallback, sizeof cmd.UserCallback);
      hash = hash_bytes(hash, &cmd.UserCallbackData, sizeof cmd.UserCallbackData);
    }
  }
  return hash;
}

// Builds one frame of the GUI (ImGui's NewFrame ... Render) and returns its fingerprint.
// `frame_seconds` only feeds ImGui's own clock (which must advance); the animation is
// wherever the caller put the lesson clock or the timeline.
std::uint64_t build_frame(GuiApp& app, const platform::OffscreenTarget& target, double frame_seconds) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(target.width()), static_cast<float>(target.height()));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = static_cast<float>(frame_seconds);
  app.advance(0.0);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  app.build_frame(io.DisplaySize.x, io.DisplaySize.y);
  ImGui::Render();
  return frame_fingerprint(app, *ImGui::GetDrawData());
}

// Draws the frame just built into `target`.
void draw_frame(GuiApp& app, const platform::OffscreenTarget& target) {
  target.bind();
  glViewport(0, 0, target.width(), target.height());
  const Rgb clear = view_colours(app.preferences().theme).view_background;
  glClearColor(clear.r / 255.f, clear.g / 255.f, clear.b / 255.f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

std::string seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f s", seconds);
  return buffer;
}

// The layout file gains what the lesson put on screen: the scene, the step, the round and the
// caption band, so that tests know where captions are and which cells they cover.
bool add_lesson_to_layout(const std::string& path, const LessonPlayer& player, std::string& error) {
  nlohmann::json layout;
  {
    std::ifstream in(path);
    layout = nlohmann::json::parse(in, nullptr, false);
  }
  if (layout.is_discarded()) {
    error = "cannot read back " + path;
    return false;
  }
  const LessonFrame frame = player.frame();
  const Rect& band = player.caption_band();
  layout["lesson"] = {{"time", frame.time},
                      {"scene", frame.scene_index},
                      {"step", frame.step_index},
                      {"round", frame.round},
                      {"round_progress", frame.round_progress},
                      {"caption", std::string(frame.caption)},
                      {"caption_band", {{"x", band.x}, {"y", band.y}, {"w", band.w}, {"h", band.h}}}};
  std::ofstream out(path, std::ios::trunc);
  if (!out || !(out << layout.dump(1) << "\n")) {
    error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace

double collective_recording_seconds(int rounds) { return kLeadSeconds + rounds * kSecondsPerRound + kTailSeconds; }

double collective_position_at(double seconds, int rounds) {
  return std::clamp((seconds - kLeadSeconds) / kSecondsPerRound, 0.0, static_cast<double>(rounds));
}

float recording_ui_scale(int height) {
  return std::clamp(std::round(static_cast<float>(height) / 720.0f * 2.0f) / 2.0f, 1.0f, 3.0f);
}

int record_headless(const RecordRequest& request) {
  using Clock = std::chrono::steady_clock;
  // Everything that can be wrong with the input is checked before any context or file exists.
  if (request.fps < 1 || request.fps > 240) throw InputError("--fps: must be between 1 and 240");
  if (request.seconds && !(*request.seconds > 0 && *request.seconds <= 3600))
    throw InputError("--seconds: must be above 0 and at most 3600");
  if (!(request.from >= 0 && request.from <= 36000)) throw InputError("--from: must be between 0 and 36000 seconds");
  const VideoKind kind = video_kind_for(request.out);
  std::optional<Lesson> lesson;
  if (request.lesson) lesson = load_lesson_file(*request.lesson);
  if (kind != VideoKind::png_folder) {
    std::string ffmpeg, error;
    if (!find_ffmpeg(ffmpeg, error)) {
      std::cerr << "ringviz: " << error << "\n";
      return 1;
    }
  }

  platform::HeadlessContext context;
  std::string error;
  if (!platform::open_headless_context(context, error)) {
    std::cerr << "ringviz: " << error << "\n";
    return 1;
  }
  int exit_code = 0;
  platform::OffscreenTarget target;
  if (!target.resize(request.width, request.height, error)) {
    std::cerr << "ringviz: " << error << "\n";
    return 1;
  }
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui_ImplOpenGL3_Init("#version 330 core");
  {
    Preferences preferences;  // never the user's saved settings: recordings must repeat
    if (request.theme) preferences.theme = *request.theme;
    if (request.palette) preferences.palette = *request.palette;
    Host host;
    host.interactive = false;
    GuiApp app(lesson ? lesson->scenes.front().config : request.config, request.backend, preferences, host);
    app.set_content_scale(request.ui_scale > 0 ? request.ui_scale : recording_ui_scale(request.height));
    // The panels speak the captions' language (the font build falls back to English, with a
    // notice, when the Chinese font is missing).
    set_ui_language(request.language);
    rebuild_fonts_and_style(app.ui_scale(), app.preferences().theme);
    LessonPlayer player(request.language);
    if (lesson) {
      player.set_lesson(std::move(lesson));
      app.add_extension(&player);
    }
    if (!app.init(error)) {
      std::cerr << "ringviz: " << error << "\n";
      exit_code = 1;
    }

    long long frames = 0;
    double duration = 0;
    if (exit_code == 0) {
      const int rounds = app.model().session().round_count();
      const double whole = player.active() ? player.lesson().duration() : collective_recording_seconds(rounds);
      duration = request.seconds ? *request.seconds : std::max(0.0, whole - request.from);
      frames = std::max<long long>(1, static_cast<long long>(std::ceil(duration * request.fps - 1e-9)));
      // Settle, and build the caption font (it reports a missing Chinese font).
      for (int i = 0; i < kSettleFrames; ++i) {
        if (player.active()) player.seek(request.from);
        else app.playback().seek(collective_position_at(request.from, rounds));
        build_frame(app, target, 1.0 / request.fps);
        draw_frame(app, target);
      }
      if (!player.font_problem().empty()) {
        std::cerr << "ringviz: " << player.font_problem() << "\n";
        exit_code = 1;
      }
    }

    // From before the temporary output exists until it is renamed or deleted.
    InterruptGuard guard;
    std::unique_ptr<VideoWriter> writer;
    if (exit_code == 0) {
      VideoWriter::Options options;
      options.out = request.out;
      options.kind = kind;
      options.width = request.width;
      options.height = request.height;
      options.fps = request.fps;
      writer = VideoWriter::open(options, error);
      if (!writer) {
        std::cerr << "ringviz: " << error << "\n";
        exit_code = 1;
      }
    }

    if (exit_code == 0) {
      const bool show_progress = request.progress && ::isatty(2);
      const int rounds = app.model().session().round_count();
      const Clock::time_point start = Clock::now();
      std::vector<std::uint8_t> pixels(static_cast<std::size_t>(request.width) * static_cast<std::size_t>(request.height) * 4);
      // Where the time goes: building and submitting the frame, reading it back (which waits
      // for the rasteriser), and handing it to the encoder (which waits when it falls behind).
      double build_seconds = 0, read_seconds = 0, write_seconds = 0;
      std::uint64_t previous_fingerprint = 0;
      long long drawn = 0;
      for (long long k = 0; k < frames && exit_code == 0; ++k) {
        // The deterministic clock: frame k shows time k / fps, however long frames take.
        const double t = request.from + static_cast<double>(k) / request.fps;
        if (player.active()) player.seek(t);
        else app.playback().seek(collective_position_at(t, rounds));
        const Clock::time_point t0 = Clock::now();
        const std::uint64_t fingerprint = build_frame(app, target, 1.0 / request.fps);
        const Clock::time_point t1 = Clock::now();
        // A lesson holds still for seconds at a time: a frame drawn from the same draw data as
        // the previous one has the same pixels, so the rasteriser is spared and they are sent
        // again. Otherwise read straight into the buffer; the writer sends it bottom-up.
        if (k == 0 || fingerprint != previous_fingerprint) {
          draw_frame(app, target);
          glPixelStorei(GL_PACK_ALIGNMENT, 1);
          glReadPixels(0, 0, request.width, request.height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
          ++drawn;
        }
        previous_fingerprint = fingerprint;
        const Clock::time_point t2 = Clock::now();
        const bool written = !InterruptGuard::interrupted() && writer->write_bottom_up(pixels.data(), error);
        const Clock::time_point t3 = Clock::now();
        build_seconds += std::chrono::duration<double>(t1 - t0).count();
        read_seconds += std::chrono::duration<double>(t2 - t1).count();
        write_seconds += std::chrono::duration<double>(t3 - t2).count();
        if (!written) {
          if (InterruptGuard::interrupted()) {
            writer->abandon();
            std::cerr << (show_progress ? "\n" : "") << "ringviz: interrupted; nothing was written to " << request.out
                      << "\n";
            exit_code = 128 + InterruptGuard::signal_number();
          } else {
            std::cerr << (show_progress ? "\n" : "") << "ringviz: " << error << "\n";
            exit_code = 1;
          }
          break;
        }
        if (show_progress && (k % 15 == 0 || k + 1 == frames))
          std::fprintf(stderr, "\rringviz: frame %lld of %lld", k + 1, frames);
      }
      if (exit_code == 0 && !writer->finish(error)) {
        std::cerr << (show_progress ? "\n" : "") << "ringviz: " << error << "\n";
        exit_code = InterruptGuard::interrupted() ? 128 + InterruptGuard::signal_number() : 1;
      }
      if (exit_code == 0 && !request.dump_layout.empty() &&
          !write_layout_json(app, static_cast<float>(request.width), static_cast<float>(request.height),
                             request.dump_layout, error)) {
        std::cerr << "ringviz: " << error << "\n";
        exit_code = 1;
      }
      if (exit_code == 0 && !request.dump_layout.empty() && player.active() &&
          !add_lesson_to_layout(request.dump_layout, player, error)) {
        std::cerr << "ringviz: " << error << "\n";
        exit_code = 1;
      }
      if (exit_code == 0) {
        const double wall = std::chrono::duration<double>(Clock::now() - start).count();
        if (show_progress) std::fprintf(stderr, "\n");
        std::printf("ringviz: wrote %s (%s, %lld frames of %dx%d at %d fps, %s of video) in %.1f s: %.1f frames/s\n",
                    request.out.c_str(), video_kind_name(kind), frames, request.width, request.height, request.fps,
                    seconds_text(static_cast<double>(frames) / request.fps).c_str(), wall,
                    wall > 0 ? static_cast<double>(frames) / wall : 0.0);
        const double per_frame = 1000.0 / static_cast<double>(frames);
        std::printf("ringviz: per frame: build %.1f ms, render and read back %.1f ms (%lld of %lld frames drawn, "
                    "the rest repeat the one before), %s %.1f ms\n",
                    build_seconds * per_frame, read_seconds * per_frame, drawn, frames,
                    kind == VideoKind::png_folder ? "PNG encode and write" : "waiting for ffmpeg",
                    write_seconds * per_frame);
      }
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
  return exit_code;
}

}  // namespace ringviz::gui
