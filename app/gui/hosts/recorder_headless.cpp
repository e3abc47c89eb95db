// `ringviz record`: the GUI drawn headless into an offscreen framebuffer on a deterministic
// clock, frame after frame, into ffmpeg (or PNG files). The wall clock is only read to report
// how fast it went.
#include "app/gui/hosts/recorder_headless.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <imgui.h>

#include "app/options/config_flags.h"
#include "app/gui/hosts/draw_fingerprint.h"
#include "app/gui/hosts/headless_surface.h"
#include "app/gui/hosts/startup.h"
#include "app/gui/record/layout_frames.h"
#include "app/gui/record/recorder.h"
#include "app/gui/runtime/frame_host.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/runtime/layout_dump.h"
#include "app/gui/stage/stage_frames.h"
#include "app/gui/layout/stage_layout.h"
#include "app/gui/stage/stage_overlay.h"
#include "app/gui/teaching/lesson_player.h"
#include "app/gui/inspect/layout_json.h"
#include "app/gui/text/strings.h"
#include "app/platform/gl.h"
#include "core/output/frame_files.h"
#include "core/output/output_file.h"
#include "core/output/output_path.h"
#include "core/output/terminal_text.h"
#include "core/input/initial_values.h"
#include "core/model/text.h"
#include "core/algorithms/registry.h"
#include "core/teaching/video_frames.h"

namespace ringviz::gui {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kLeadSeconds = 1.0;  // the inputs, before the first round moves
constexpr double kTailSeconds = 2.0;  // the result, after the last round lands

std::string seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f s", seconds);
  return buffer;
}

// The layout file's part for the lesson: the lesson (its file's stem), the scene and the step
// (0-based, as in the lesson file), the round and the caption band on screen, so that tests
// know where captions are and which cells they cover.
nlohmann::json lesson_layout_json(const LessonPlayer& player) {
  const LessonFrame frame = player.frame();
  const Rect& band = player.caption_band();
  return {{"name", std::filesystem::path(player.lesson().source).stem().string()},
          {"time", frame.time},
          {"scene", frame.scene_index},
          {"step", frame.step_index},
          {"round", frame.round},
          {"round_progress", frame.round_progress},
          {"caption", std::string(frame.caption)},
          {"caption_band", rect_json(band)}};
}

// The stage's part of the layout file: what the video shows (a card or the lesson), the
// caption's and the header's text size, the view and the box around every GPU of the ring, so
// that tests can check what a viewer would see.
nlohmann::json stage_layout_json(GuiApp& app, const LessonPlayer& player, const StageOverlay& overlay) {
  const RingGeometry& geometry = app.geometry();
  Rect ring{};
  bool any = false;
  for (const GpuBox& box : geometry.boxes) {
    if (box.box.w <= 0) continue;
    const float x0 = any ? std::min(ring.x, box.box.x) : box.box.x, y0 = any ? std::min(ring.y, box.box.y) : box.box.y;
    const float x1 = any ? std::max(ring.right(), box.box.right()) : box.box.right();
    const float y1 = any ? std::max(ring.bottom(), box.box.bottom()) : box.box.bottom();
    ring = {x0, y0, x1 - x0, y1 - y0};
    any = true;
  }
  const char* part = overlay.part() == StagePart::title ? "title" : overlay.part() == StagePart::end ? "end" : "lesson";
  return {{"part", part},
          {"transparent", app.transparent_background()},
          {"ui_scale", app.ui_scale()},
          {"caption_pixels", player.active() ? player.caption_pixels() : 0.0f},
          {"header", rect_json(overlay.header())},
          {"header_pixels", overlay.header_pixels()},
          {"header_title", overlay.header_title()},
          {"header_formula", overlay.header_formula()},
          {"view", rect_json(app.panels().view)},
          {"ring_bounds", rect_json(ring)}};
}

// Whether two folder paths ("frames/", "./frames") name one folder, existing or not.
bool same_folder(const std::string& a, const std::string& b) {
  const auto folder = [](const std::string& path) {
    std::filesystem::path p(path);
    if (p.filename().empty()) p = p.parent_path();
    std::error_code ec;
    return std::filesystem::weakly_canonical(std::filesystem::absolute(p), ec);
  };
  return folder(a) == folder(b);
}

// Where the time goes: building and submitting frames, reading them back (which waits for the
// rasteriser), and handing them to the encoder (which waits when it falls behind).
struct FrameTimes {
  double build_seconds = 0;
  double read_seconds = 0;
  double write_seconds = 0;
  long long drawn = 0;  // frames rasterised; the others repeat the one before
};

// One recording of a prepared app, from the settle frames to the summary line.
class Recording {
 public:
  Recording(const RecordRequest& request, VideoKind kind, FrameHost& frames, GuiApp& app, LessonPlayer& player,
            StageOverlay& overlay, platform::OffscreenTarget& target)
      : request_(request), kind_(kind), frames_(frames), app_(app), player_(player), overlay_(overlay),
        target_(target), stage_(request.width, request.height, request.fps, request.transparent) {}

  // The first frame drawn until ImGui settles (which also builds the caption font, and finds
  // out whether the Chinese one is missing).
  HostStatus settle() {
    const double whole = player_.active() ? recorded_lesson_seconds(player_.lesson(), lesson_cards(request_.layout))
                                          : playback_recording_seconds(app_.playback());
    const double duration = request_.seconds ? *request_.seconds : std::max(0.0, whole - request_.from);
    count_ = video_frame_count(duration, request_.fps);
    for (int i = 0; i < kSettleFrames; ++i) {
      show(request_.from);
      build();
      draw();
    }
    if (!player_.font_problem().empty()) return {HostExit::runtime_failure, player_.font_problem()};
    // Not an error (a lesson may move on to views that fit), but a video of notices is rarely
    // what was meant.
    if (!app_.geometry().fits)
      std::fprintf(stderr,
                   "ringviz: warning: at %dx%d the ring view is too small to draw these GPUs and shows a "
                   "notice instead; record at a larger --size, e.g. 1280x720\n",
                   request_.width, request_.height);
    return {};
  }

  HostStatus write() {
    if (layouts_only(request_)) return write_layouts();
    VideoWriter::Options options;
    options.out = request_.out;
    options.kind = kind_;
    options.width = request_.width;
    options.height = request_.height;
    options.fps = request_.fps;
    options.keep_alpha = request_.transparent;
    options.frame_prefix = frame_prefix();
    std::string error;
    std::unique_ptr<VideoWriter> writer = VideoWriter::open(options, error);
    if (!writer) return {HostExit::runtime_failure, error};
    if (names_folder(request_.dump_layout) && !layouts_.open(request_.dump_layout, error))
      return {HostExit::runtime_failure, error};
    const bool show_progress = request_.progress && ::isatty(2);
    const Clock::time_point start = Clock::now();
    HostStatus status = write_frames(*writer, show_progress);
    if (show_progress) std::fprintf(stderr, "\n");  // ends the progress line
    if (status.ok() && !writer->finish(error))
      status = InterruptGuard::interrupted() ? interrupted(error) : HostStatus(HostExit::runtime_failure, error);
    if (status.ok() && layouts_.is_open() && !layouts_.finish(error)) status = {HostExit::runtime_failure, error};
    if (status.ok()) status = write_layout();
    if (status.ok()) print_summary(std::chrono::duration<double>(Clock::now() - start).count());
    return status;
  }

 private:
  int rounds() { return app_.model().session().round_count(); }

  // A stage recording of a lesson has a title card before it and an end card after it.
  bool cards() const { return player_.active() && lesson_cards(request_.layout) == LessonCards::title_and_end; }

  // PNG frames are frame-000000.png, ...; a transparent sequence's are named after the lesson
  // (or "frame") and numbered from 1 (frame_file_name). Layout frames follow the same names.
  std::string frame_prefix() const {
    if (!request_.transparent) return "";
    return player_.active() ? std::filesystem::path(player_.lesson().source).stem().string() : "frame";
  }

  // The layout of the frame just built: the window's, with the recorder's own parts. The
  // lesson is null on the stage's title and end cards, where no scene is shown.
  nlohmann::json frame_layout() {
    nlohmann::json layout =
        layout_json(app_, static_cast<float>(request_.width), static_cast<float>(request_.height));
    const bool on_card = cards() && moment_.part != StagePart::lesson;
    if (player_.active() && !on_card) layout["lesson"] = lesson_layout_json(player_);
    if (request_.layout == RecordLayout::stage) layout["stage"] = stage_layout_json(app_, player_, overlay_);
    return layout;
  }

  // The deterministic clock: what time `seconds` of the video shows (the lesson's or the
  // collective's time, after the title card when there is one).
  void show(double seconds) {
    if (cards()) {
      moment_ = stage_moment(player_.lesson(), seconds);
      overlay_.set_part(moment_.part);
      player_.seek(moment_.lesson_seconds);
    } else if (player_.active()) {
      player_.seek(seconds);
    } else {
      app_.playback().seek(playback_position_at(seconds, app_.playback()));
    }
  }

  // The animation stands where show() put it; ImGui's clock moves one video frame.
  void build() {
    FrameStep step;
    step.imgui_seconds = 1.0 / request_.fps;
    frames_.build(app_, step, target_.width(), target_.height());
  }
  void draw() {
    target_.bind();
    frames_.draw(app_, target_.width(), target_.height());
  }

  static HostStatus interrupted(std::string message) {
    return {HostExit::interrupted, std::move(message), InterruptGuard::signal_number()};
  }

  HostStatus write_frames(VideoWriter& writer, bool show_progress) {
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(request_.width) * static_cast<std::size_t>(request_.height) * 4);
    std::uint64_t previous_fingerprint = 0;
    std::string error;
    for (long long k = 0; k < count_; ++k) {
      // Frame k shows time k / fps, however long frames take.
      const double seconds = request_.from + static_cast<double>(k) / request_.fps;
      show(seconds);
      if (cards()) stage_.before_frame(moment_, pixels, player_.caption_band().y);
      const Clock::time_point t0 = Clock::now();
      build();
      const std::uint64_t fingerprint = draw_fingerprint(app_, *ImGui::GetDrawData());
      // The frame's layout from the draw data just built (before draw() may re-clip it).
      if (layouts_.is_open() &&
          !layouts_.write(frame_file_name(frame_prefix(), k, ".json"), frame_layout().dump(1) + "\n", error))
        return {HostExit::runtime_failure, error};
      const Clock::time_point t1 = Clock::now();
      // A lesson holds still for seconds at a time: a frame drawn from the same draw data as
      // the previous one has the same pixels, so the rasteriser is spared and they are sent
      // again. Otherwise read straight into the buffer; the writer sends it bottom-up.
      if (k == 0 || fingerprint != previous_fingerprint) {
        draw();
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, request_.width, request_.height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
        ++times_.drawn;
      }
      previous_fingerprint = fingerprint;
      const Clock::time_point t2 = Clock::now();
      // Cross-fades and transparency work on a copy: `pixels` stays the frame as drawn.
      const std::uint8_t* frame = request_.layout == RecordLayout::stage
                                      ? stage_.finish(pixels, seconds, player_.caption_band().y)
                                      : pixels.data();
      const bool written = !InterruptGuard::interrupted() && writer.write_bottom_up(frame, error);
      const Clock::time_point t3 = Clock::now();
      times_.build_seconds += std::chrono::duration<double>(t1 - t0).count();
      times_.read_seconds += std::chrono::duration<double>(t2 - t1).count();
      times_.write_seconds += std::chrono::duration<double>(t3 - t2).count();
      if (!written) {
        if (!InterruptGuard::interrupted()) return {HostExit::runtime_failure, error};
        writer.abandon();
        return interrupted("interrupted; nothing was written to " + request_.out);
      }
      if (show_progress && (k % 15 == 0 || k + 1 == count_))
        std::fprintf(stderr, "\rringviz: frame %lld of %lld", k + 1, count_);
    }
    return {};
  }

  // No video: every frame is built (its layout comes from the draw data), never rasterised or
  // encoded. The folder appears whole at the end, as the frames' would.
  HostStatus write_layouts() {
    std::string error;
    if (!layouts_.open(request_.dump_layout, error)) return {HostExit::runtime_failure, error};
    for (long long k = 0; k < count_; ++k) {
      if (InterruptGuard::interrupted()) return interrupted("interrupted; nothing was written to " + request_.dump_layout);
      show(request_.from + static_cast<double>(k) / request_.fps);
      build();
      if (!layouts_.write(frame_file_name(frame_prefix(), k, ".json"), frame_layout().dump(1) + "\n", error))
        return {HostExit::runtime_failure, error};
    }
    if (!layouts_.finish(error)) return {HostExit::runtime_failure, error};
    std::printf(request_.language == Language::zh ? "ringviz: 已写入 %s（%lld 帧的布局，不含视频）\n"
                                                  : "ringviz: wrote %s (the layouts of %lld frames, no video)\n",
                escape_for_message(request_.dump_layout).c_str(), count_);
    return {};
  }

  // --dump-layout FILE: the last frame's layout, written once.
  HostStatus write_layout() {
    if (request_.dump_layout.empty() || layouts_.is_open()) return {};
    std::string error;
    if (!write_output_file(request_.dump_layout, frame_layout().dump(1) + "\n", error))
      return {HostExit::runtime_failure, error};
    return {};
  }

  // In the recording's language, as the subtitles' line that follows (the "ringviz: " that
  // starts every line stays, for scripts that look for it).
  void print_summary(double wall) const {
    const Language lang = request_.language;
    const double frames = static_cast<double>(count_);
    const std::string kind =
        kind_ == VideoKind::png_folder ? en_zh(lang, video_kind_name(kind_), "PNG 帧") : video_kind_name(kind_);
    const bool zh = lang == Language::zh;  // both wordings literal, so that printf's arguments are checked
    std::printf(zh ? "ringviz: 已写入 %s（%s，%lld 帧，%dx%d，%d fps，视频 %s），用时 %.1f s：每秒 %.1f 帧\n"
                   : "ringviz: wrote %s (%s, %lld frames of %dx%d at %d fps, %s of video) in %.1f s: %.1f frames/s\n",
                escape_for_message(request_.out).c_str(), kind.c_str(), count_, request_.width, request_.height,
                request_.fps, seconds_text(frames / request_.fps).c_str(), wall, wall > 0 ? frames / wall : 0.0);
    const double per_frame = 1000.0 / frames;
    const std::string writing = kind_ == VideoKind::png_folder ? en_zh(lang, "PNG encode and write", "PNG 编码与写入")
                                                               : en_zh(lang, "waiting for ffmpeg", "等待 ffmpeg");
    std::printf(zh ? "ringviz: 每帧：构建 %.1f ms，渲染与读回 %.1f ms（%lld / %lld 帧经过绘制，其余重复前一帧），"
                     "%s %.1f ms\n"
                   : "ringviz: per frame: build %.1f ms, render and read back %.1f ms (%lld of %lld frames drawn, "
                     "the rest repeat the one before), %s %.1f ms\n",
                times_.build_seconds * per_frame, times_.read_seconds * per_frame, times_.drawn, count_,
                writing.c_str(), times_.write_seconds * per_frame);
  }

  const RecordRequest& request_;
  VideoKind kind_;
  FrameHost& frames_;
  GuiApp& app_;
  LessonPlayer& player_;
  StageOverlay& overlay_;
  platform::OffscreenTarget& target_;
  StageFrames stage_;
  StageMoment moment_;  // of the frame being drawn, with cards
  LayoutFrameFolder layouts_;  // --dump-layout DIR/: open while frames are written
  long long count_ = 0;  // frames in the video
  FrameTimes times_;
};

}  // namespace

double collective_recording_seconds(int rounds) { return kLeadSeconds + rounds * kSecondsPerRound + kTailSeconds; }

double playback_recording_seconds(const Playback& playback) {
  return kLeadSeconds + playback.seconds_until(playback.round_count()) + kTailSeconds;
}

double playback_position_at(double seconds, const Playback& playback) {
  return seconds < kLeadSeconds ? 0.0 : playback.position_after(seconds - kLeadSeconds);
}

LessonCards lesson_cards(RecordLayout layout) {
  return layout == RecordLayout::stage ? LessonCards::title_and_end : LessonCards::none;
}

double stage_title_seconds(const RecordRequest& request) {
  return request.lesson && lesson_cards(request.layout) == LessonCards::title_and_end ? kTitleCardSeconds : 0.0;
}

bool layouts_only(const RecordRequest& request) { return request.out.empty() && names_folder(request.dump_layout); }

void check_stage_options(const RecordRequest& request) {
  if (!request.transparent || layouts_only(request)) return;
  if (request.layout != RecordLayout::stage)
    throw InputError("--background transparent: only with --layout stage (the app layout paints its panels "
                     "opaque); drop --layout app");
  if (video_kind_for(request.out) != VideoKind::png_folder)
    throw InputError("--background transparent: " + request.out +
                     " is a video, and .mp4 (H.264) and .gif keep no alpha; give a folder for PNG frames with "
                     "alpha, e.g. --out frames/");
}

float recording_ui_scale(int height) {
  return std::clamp(std::round(static_cast<float>(height) / 720.0f * 2.0f) / 2.0f, 1.0f, 3.0f);
}

int record_headless(const RecordRequest& request) {
  // Everything that can be wrong with the input is checked before any context or file exists.
  if (request.fps < 1 || request.fps > 240) throw InputError("--fps: must be between 1 and 240");
  if (request.seconds && !(*request.seconds > 0 && *request.seconds <= 3600))
    throw InputError("--seconds: must be above 0 and at most 3600");
  if (!(request.from >= 0 && request.from <= 36000)) throw InputError("--from: must be between 0 and 36000 seconds");
  // Layouts alone write no video: nothing to check of one, and no encoder to find.
  const VideoKind kind = layouts_only(request) ? VideoKind::png_folder : video_kind_for(request.out);
  check_stage_options(request);
  if (!layouts_only(request)) check_video_output(request.out, kind, request.width, request.height);
  if (kind != VideoKind::png_folder) {
    double limit = 0;
    std::string problem;
    if (!encoder_timeout_seconds(limit, problem)) throw InputError(problem);
  }
  if (!request.dump_layout.empty()) {
    check_layout_output(request.dump_layout, "--dump-layout");
    if (names_folder(request.dump_layout) && !layouts_only(request) && kind == VideoKind::png_folder &&
        same_folder(request.dump_layout, request.out))
      throw InputError("--dump-layout: '" + request.dump_layout +
                       "' is the --out folder of the PNG frames; give the layouts a folder of their own");
  }
  std::optional<Lesson> lesson;
  if (request.lesson) lesson = load_lesson_file(*request.lesson);
  else if (!request.open) check_initial_values(request.config);
  require_backend(request.backend);
  std::optional<ReplaySource> replay;
  if (request.open) {
    replay.emplace();
    replay->open(*request.open);  // a refused document is bad input (exit 2)
  }
  // Starting past the end would record one still frame of the end and report success. The end
  // itself is a fair start (its last frame); a millisecond of slack covers a time printed rounded.
  const bool cards = lesson && lesson_cards(request.layout) == LessonCards::title_and_end;
  double whole = lesson ? recorded_lesson_seconds(*lesson, lesson_cards(request.layout))
                        : collective_recording_seconds(make_schedule(request.config).round_count());
  if (replay) {
    Playback paced;
    paced.set_round_count(make_schedule(replay->config()).round_count());
    paced.set_round_seconds(replay->round_seconds());
    whole = playback_recording_seconds(paced);
  }
  if (request.from > whole + 1e-3) {
    char text[160];
    std::snprintf(text, sizeof text, "--from: %g is past the end of the %s, which lasts %.3g s; choose 0 to %.3g",
                  request.from,
                  cards ? "video (title card, lesson, end card)" : lesson ? "lesson" : replay ? "replay" : "collective",
                  whole, whole);
    throw InputError(text);
  }
  std::string error;
  if (kind != VideoKind::png_folder) {
    std::string ffmpeg;
    if (!find_ffmpeg(ffmpeg, error)) return HostStatus(HostExit::runtime_failure, error).report();
  }

  // From here to the end a signal only sets a flag: the run ends at the next frame or wait with
  // 130 or 143 and one line, the temporary output deleted (docs/architecture.md, "Output files").
  InterruptGuard guard;
  HeadlessSurface surface;
  HostStatus status = surface.open(request.width, request.height, request.backend);
  if (!status.ok()) return status.report();
  {
    FrameHost frames;
    Preferences preferences;  // never the user's saved settings: recordings must repeat
    if (request.theme) preferences.theme = *request.theme;
    if (request.palette) preferences.palette = *request.palette;
    Host host;
    host.interactive = false;
    host.graphics = surface.describe();
    GuiApp app(ring_request(lesson ? lesson->scenes.front().config : request.config), request.backend, preferences,
               host, std::move(replay));
    const bool stage = request.layout == RecordLayout::stage;
    app.set_content_scale(request.ui_scale > 0 ? request.ui_scale
                          : stage          ? stage_ui_scale(request.height)
                                           : recording_ui_scale(request.height));
    app.set_stage(stage);
    app.set_transparent_background(request.transparent);
    // The panels speak the captions' language (the font build falls back to English, with a
    // notice, when the Chinese font is missing).
    app.set_language(request.language);
    LessonPlayer player(request.language);
    if (stage) {
      player.set_caption_pixels_rule(stage_caption_pixels);
      player.set_extra_caption_text(StageOverlay::card_text());
      player.set_reserve_longest_caption(true);
    }
    if (lesson) {
      player.set_lesson(std::move(lesson));
      app.add_extension(&player);
    }
    // After the player: its cards cover the caption band.
    StageOverlay overlay(player);
    overlay.set_transparent(request.transparent);
    if (stage) app.add_extension(&overlay);
    status = frames.start(app);
    // Every input was accepted before the surface opened: say the session's own backend notice.
    if (status.ok()) cli::say_backend_notice(app.model().backend_selection_notice(), request.verbose);
    Recording recording(request, kind, frames, app, player, overlay, surface.target());
    if (status.ok()) status = recording.settle();
    if (status.ok()) status = recording.write();
  }
  return status.report();
}

}  // namespace ringviz::gui
