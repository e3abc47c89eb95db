// ringviz record: a lesson, or a collective, rendered headless to .mp4 / .gif / PNG frames on
// a deterministic clock. A thin client of the GUI's recorder (app/gui/hosts/recorder_headless.h).
#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

#include "app/cli/command.h"
#include "app/cli/config_flags.h"
#include "app/cli/number_flags.h"
#include "core/io/output_path.h"
#include "core/teaching/lesson.h"
#ifdef RINGVIZ_WITH_GUI
#include "app/gui/hosts/gui_options.h"
#include "app/gui/hosts/recorder_headless.h"
#include "app/gui/render/theme.h"
#endif

namespace ringviz::cli {

namespace {

struct RecordFlags {
  ConfigFlags config;
  std::string lesson;
  std::string out;
  std::string size = "1920x1080";
  int fps = 60;
  double seconds = 0;
  double from = 0;
  std::string dump_layout;
  std::string theme;
  std::string palette;
  float ui_scale = 0;
};

#ifdef RINGVIZ_WITH_GUI
// A lesson file, or the name of a shipped one ("05-allreduce-traffic", or "default"), looked up
// in the lesson folder next to the executable.
std::filesystem::path resolve_lesson(const std::string& text) {
  const std::filesystem::path given(text);
  if (std::filesystem::exists(given) || text.find('/') != std::string::npos) return given;
  std::error_code ec;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", ec);
  const auto folder = find_lesson_folder(ec ? std::filesystem::current_path() : executable);
  if (!folder) return given;
  std::string name = text == "default" ? std::string(kDefaultLessonFile) : text;
  if (std::filesystem::path(name).extension() != ".json") name += ".json";
  const std::filesystem::path shipped = *folder / name;
  return std::filesystem::exists(shipped) ? shipped : given;
}
#endif

}  // namespace

Command add_record_command(CLI::App& app) {
  auto flags = std::make_shared<RecordFlags>();
  CLI::App* parser = app.add_subcommand(
      "record",
      "render a lesson (or a collective) headless to a video: .mp4 (H.264), .gif, or a folder of PNG "
      "frames; frame k shows time k/fps, so the same input gives the same frames");
  parser->add_option("--lesson", flags->lesson,
                     "a lesson file (assets/lessons/05-allreduce-traffic.json), a shipped lesson's name "
                     "(05-allreduce-traffic), or 'default'");
  parser->add_option("--out", flags->out, "video.mp4, video.gif, or a folder for PNG frames (frames/)")->required();
  parser->add_option("--size", flags->size, "frame size WxH")->capture_default_str();
  parser->add_option("--fps", flags->fps, "frames per second of video")->capture_default_str();
  parser->add_option("--seconds", flags->seconds,
                     "record only the first S seconds (default: the whole lesson or collective)");
  parser->add_option("--from", flags->from, "start at this time of the lesson or collective, in seconds")
      ->capture_default_str();
  parser->add_option("--dump-layout", flags->dump_layout,
                     "write the last frame's GPU boxes and cell rectangles to this JSON file")
      ->each([](const std::string& path) { check_output_file(path, "--dump-layout", ".json"); });
#ifdef RINGVIZ_WITH_GUI
  parser->add_option("--theme", flags->theme, choice_help(gui::kThemeNames));
  parser->add_option("--palette", flags->palette, choice_help(gui::kPaletteNames));
#else
  parser->add_option("--theme", flags->theme, "the GUI's colour theme");
  parser->add_option("--palette", flags->palette, "the GUI's GPU colours");
#endif
  parser->add_option("--ui-scale", flags->ui_scale, "scale text and widgets (default: from the height)");
  add_config_flags(*parser, flags->config);

  Command command;
  command.parser = parser;
  command.run = [flags, parser]() -> int {
#ifdef RINGVIZ_WITH_GUI
    gui::RecordRequest request;
    request.language = parse_language(flags->config.lang, "--lang");
    if (!flags->lesson.empty()) {
      // A lesson brings its own collectives: a config option next to it would be ignored.
      for (const char* option : {"--op", "--algo", "--order", "--gpus", "--count", "--dtype", "--reduce", "--init"})
        if (parser->get_option(option)->count() > 0)
          throw InputError(std::string(option) + ": not with --lesson (the lesson sets each scene's collective)");
      request.lesson = resolve_lesson(flags->lesson);
    } else {
      request.config = config_from_flags(flags->config);
    }
    request.backend = backend_from_flags(flags->config);
    request.out = flags->out;
    gui::parse_size(flags->size, "--size", request.width, request.height);
    request.fps = flags->fps;
    if (parser->get_option("--seconds")->count() > 0) request.seconds = flags->seconds;
    request.from = flags->from;
    request.dump_layout = flags->dump_layout;
    if (!flags->theme.empty()) request.theme = parse_enum(gui::kThemeNames, flags->theme, "--theme");
    if (!flags->palette.empty()) request.palette = parse_enum(gui::kPaletteNames, flags->palette, "--palette");
    request.ui_scale = parse_ui_scale(flags->ui_scale);
    return gui::record_headless(request);
#else
    (void)parser;
    std::cerr << "ringviz: record needs the GUI, and this ringviz was built without it (RINGVIZ_GUI=OFF)\n";
    return 1;
#endif
  };
  return command;
}

}  // namespace ringviz::cli
