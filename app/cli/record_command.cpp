// ringviz record: a lesson, or a collective, rendered headless to .mp4 / .gif / PNG frames on
// a deterministic clock. A thin client of the GUI's recorder (app/gui/hosts/recorder_headless.h).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

#include "app/cli/command.h"
#include "app/options/config_flags.h"
#include "app/options/number_flags.h"
#include "app/cli/shipped_lessons.h"
#include "core/output/frame_files.h"
#include "core/output/output_path.h"
#include "core/output/terminal_text.h"
#include "core/teaching/lesson.h"
#include "core/teaching/subtitles.h"
#ifdef RINGVIZ_WITH_GUI
#include "app/gui/hosts/gui_options.h"
#include "app/gui/hosts/recorder_headless.h"
#include "app/gui/record/recorder.h"
#include "app/gui/render/theme.h"
#endif

namespace ringviz::cli {

namespace {

// One recording: at most an hour at 60 frames per second.
constexpr int kMaxFps = 240;
constexpr double kMaxSeconds = 3600;
constexpr double kMaxFrom = 36000;
constexpr double kMaxFrames = 216000;

struct RecordFlags {
  ConfigFlags config;
  std::string lesson;
  bool list_lessons = false;
  std::string open;
  std::string out;
  std::string size = "1920x1080";
  int fps = 60;
  double seconds = 0;
  double from = 0;
  std::string dump_layout;
  std::string theme;
  std::string palette;
  float ui_scale = 0;
  std::string layout;      // stage (default) or app
  std::string background;  // opaque (default) or transparent
};

#ifdef RINGVIZ_WITH_GUI
// Where a lesson recording's subtitles go (`extension` ".srt" or ".vtt"): beside the video or
// the folder of PNG frames, under its name.
std::filesystem::path lesson_subtitle_path(const gui::RecordRequest& request, const std::string& extension) {
  const bool folder = gui::video_kind_for(request.out) == gui::VideoKind::png_folder;
  return subtitle_path(request.out, folder, request.lesson->stem().string(), extension);
}

// After the video is written: the lesson's captions as NAME.srt and NAME.vtt, timed to the
// frames that show them, in the recording's language. Returns the exit code.
int write_lesson_subtitles(const gui::RecordRequest& request) {
  // The video's clock to the lesson's: a stage recording opens on a title card
  // (gui::stage_title_seconds) and closes on an end card that hides the last caption; --from
  // counts on the video's clock, title card included.
  const Lesson lesson = load_lesson_file(*request.lesson);
  const double title = gui::stage_title_seconds(request);
  const std::optional<double> end_card = title > 0 ? std::optional<double>(lesson.duration()) : std::nullopt;
  const std::optional<SubtitleWindow> window =
      lesson_window_in_video(request.fps, request.from, request.seconds, title, end_card);
  const std::filesystem::path srt = lesson_subtitle_path(request, ".srt");
  const std::filesystem::path vtt = lesson_subtitle_path(request, ".vtt");
  // A video that ends inside the title card shows no caption: files without cues, so that
  // the pair still stands beside the video.
  const std::vector<SubtitleCue> cues = window ? subtitle_cues(lesson, request.language, *window)
                                               : std::vector<SubtitleCue>{};
  std::string error;
  if (!write_subtitle_files(cues, srt, vtt, error)) {
    std::cerr << "ringviz: " << error << "\n";
    return 1;
  }
  // Worded like the video's summary line just before it, in the recording's language.
  const Language lang = request.language;
  std::cout << en_zh(lang, "ringviz: wrote ", "ringviz: 已写入 ") << escape_for_message(srt.string())
            << en_zh(lang, " and ", " 和 ") << escape_for_message(vtt.string())
            << en_zh(lang, " (subtitles)\n", "（字幕）\n");
  return 0;
}
#endif

}  // namespace

Command add_record_command(CLI::App& app) {
  auto flags = std::make_shared<RecordFlags>();
  CLI::App* parser = app.add_subcommand(
      "record",
      "render a lesson (or a collective) headless to a video: .mp4 (H.264), .gif, or a folder of PNG "
      "frames; frame k shows time k/fps, so the same input gives the same frames");
  add_checked_option<std::string>(
      *parser, "--lesson", flags->lesson,
      [](const std::string& text) {
        // Empty would read as "no lesson" and record the collective instead, without a word.
        if (text.empty())
          throw InputError("--lesson: '' is empty (expected a lesson file, a shipped lesson's name, or 'default')");
        return text;
      },
      "a lesson file (assets/lessons/05-allreduce-traffic.json), a shipped lesson's name "
      "(05-allreduce-traffic), or 'default'",
      "TEXT");
  parser->add_flag("--list-lessons", flags->list_lessons,
                   "list the shipped lessons (as `ringviz lessons` does, in --lang) and record nothing");
  parser->add_option("--open", flags->open,
                     "replay a ringviz.trace/1 document (a capture or `trace --format json` output) at its "
                     "measured pacing");
  // Required unless --list-lessons, which run() checks.
  parser->add_option("--out", flags->out, "video.mp4, video.gif, or a folder for PNG frames (frames/); required");
  parser->add_option("--size", flags->size, "frame size WxH")->capture_default_str();
  add_checked_option<int>(
      *parser, "--fps", flags->fps,
      [](const std::string& text) { return static_cast<int>(parse_number_in_range(text, "--fps", 1, kMaxFps)); },
      "frames per second of video, 1-240 (default 60)", "INT");
  add_checked_option<double>(
      *parser, "--seconds", flags->seconds,
      [](const std::string& text) {
        const double seconds = parse_real_in_range(text, "--seconds", 0, kMaxSeconds, "above 0, at most 3600");
        if (seconds == 0) throw InputError("--seconds: " + text + " is out of range (above 0, at most 3600)");
        return seconds;
      },
      "record only the first S seconds, at most 3600 (default: the whole lesson or collective)", "FLOAT");
  add_checked_option<double>(
      *parser, "--from", flags->from,
      [](const std::string& text) { return parse_real_in_range(text, "--from", 0, kMaxFrom, "0 to 36000"); },
      "start at this time of the lesson or collective, in seconds (default 0)", "FLOAT");
  parser->add_option("--dump-layout", flags->dump_layout,
                     "write the last frame's layout (GPU boxes, cells, every text drawn) to this JSON file, or "
                     "one layout per frame into a folder (a path ending in '/')")
      ->each([](const std::string& path) { check_layout_output(path, "--dump-layout"); });
#ifdef RINGVIZ_WITH_GUI
  parser->add_option("--theme", flags->theme, choice_help(gui::kThemeNames));
  parser->add_option("--palette", flags->palette, choice_help(gui::kPaletteNames));
#else
  parser->add_option("--theme", flags->theme, "the GUI's colour theme");
  parser->add_option("--palette", flags->palette, "the GUI's GPU colours");
#endif
  add_checked_option<float>(
      *parser, "--ui-scale", flags->ui_scale, [](const std::string& text) { return parse_ui_scale_text(text); },
      "scale text and widgets, 0.5-4 (default: from the height)", "FLOAT");
  parser->add_option("--layout", flags->layout,
                     "stage (default): the view large with the round, the formula and the lesson's caption, "
                     "title and end cards; app: the whole GUI window as on the desktop");
  parser->add_option("--background", flags->background,
                     "opaque (default), or transparent: PNG frames with alpha for compositing (stage layout, "
                     "--out a folder)");
  add_config_flags(*parser, flags->config);

  Command command;
  command.parser = parser;
  command.run = [flags, parser]() -> int {
    if (flags->list_lessons) {
      for (const char* option : {"--lesson", "--open", "--out"})
        if (parser->get_option(option)->count() > 0)
          throw InputError(std::string("--list-lessons: not with ") + option + " (it lists the lessons and records nothing)");
      return print_shipped_lessons(std::cout, std::cerr, parse_language(flags->config.lang, "--lang"));
    }
    // Without --out, a --dump-layout folder records the layouts alone (gui::layouts_only).
    const bool layout_folder = !flags->dump_layout.empty() && flags->dump_layout.back() == '/';
    if (parser->get_option("--out")->count() == 0 && !layout_folder)
      throw InputError("--out: missing (a .mp4 or .gif file, or a folder for PNG frames; --dump-layout DIR/ alone "
                       "writes the frames' layouts without a video; --list-lessons lists the lessons instead)");
#ifdef RINGVIZ_WITH_GUI
    gui::RecordRequest request;
    request.language = parse_language(flags->config.lang, "--lang");
    if (!flags->lesson.empty()) {
      // A lesson brings its own collectives: a config option next to it would be ignored.
      for (const char* option : kCollectiveFlags)
        if (parser->get_option(option)->count() > 0)
          throw InputError(std::string(option) + ": not with --lesson (the lesson sets each scene's collective)");
      if (!flags->open.empty()) throw InputError("--open: not with --lesson (record one or the other)");
      request.lesson = resolve_lesson(flags->lesson);
    } else if (!flags->open.empty()) {
      // The document brings its collective, as a lesson does.
      for (const char* option : kCollectiveFlags)
        if (parser->get_option(option)->count() > 0)
          throw InputError(std::string(option) + ": not with --open (the recorded run sets the collective)");
      request.open = flags->open;
    } else {
      request.config = config_from_flags(flags->config);
    }
    request.backend = backend_from_flags(flags->config);
    request.out = flags->out;
    gui::parse_size(flags->size, "--size", request.width, request.height);
    request.fps = flags->fps;
    if (parser->get_option("--seconds")->count() > 0) {
      request.seconds = flags->seconds;
      // Each bound alone allows 864000 frames, days of rendering: bound the product.
      if (flags->seconds * flags->fps > kMaxFrames)
        throw InputError("--seconds: " + std::to_string(static_cast<long long>(flags->seconds * flags->fps)) +
                         " frames at --fps " + std::to_string(flags->fps) +
                         " is more than a recording may have (at most 216000, an hour at 60 fps); record less or lower --fps");
    }
    request.from = flags->from;
    request.dump_layout = flags->dump_layout;
    if (!flags->theme.empty()) request.theme = parse_enum(gui::kThemeNames, flags->theme, "--theme");
    if (!flags->palette.empty()) request.palette = parse_enum(gui::kPaletteNames, flags->palette, "--palette");
    request.ui_scale = parse_ui_scale(flags->ui_scale);
    if (!flags->layout.empty()) request.layout = parse_enum(gui::kRecordLayoutNames, flags->layout, "--layout");
    if (!flags->background.empty() && flags->background != "opaque") {
      if (flags->background != "transparent")
        throw InputError("--background: '" + flags->background + "' is not a background (expected opaque or transparent)");
      request.transparent = true;
    }
    if (request.lesson && !gui::layouts_only(request))
      // A folder where a subtitle file should go is found before any frame is drawn.
      for (const char* extension : {".srt", ".vtt"})
        if (const std::filesystem::path path = lesson_subtitle_path(request, extension);
            std::filesystem::is_directory(path))
          throw InputError("--out: '" + escape_for_message(path.string()) +
                           "', where the lesson's subtitles go, is a folder; move it away or choose another --out name");
    // record_headless says the backend notice itself, after checking --seconds, --from, --out.
    request.verbose = flags->config.verbose;
    const int status = gui::record_headless(request);
    // Subtitles only beside a video that was written.
    if (status != 0 || !request.lesson || gui::layouts_only(request)) return status;
    return write_lesson_subtitles(request);
#else
    (void)parser;
    std::cerr << "ringviz: record needs the GUI, and this ringviz was built without it (RINGVIZ_GUI=OFF)\n";
    return 1;
#endif
  };
  return command;
}

}  // namespace ringviz::cli
