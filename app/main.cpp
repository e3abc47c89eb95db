// ringviz: the command-line entry point. Every subcommand is a thin client of core/.
#include <csignal>
#include <cstdio>
#include <iostream>
#include <new>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/command.h"
#include "app/options/config_flags.h"
#ifdef RINGVIZ_WITH_GUI
#include "app/gui/hosts/gui_options.h"
#endif
#include "core/model/config.h"
#include "core/model/text.h"
#include "core/output/output_file.h"

namespace {

constexpr const char* kDescription =
    "ringviz: ring AllGather, ReduceScatter and AllReduce executed round by round on real "
    "buffers, and shown.";

int run_command_line(int argc, char** argv) {
  using namespace ringviz;
  CLI::App app{kDescription, "ringviz"};
  app.set_version_flag("--version", std::string("ringviz ") + RINGVIZ_VERSION);
  app.require_subcommand(0, 1);
  std::vector<cli::Command> commands = {cli::add_trace_command(app),
                                         cli::add_bench_command(app),
                                         cli::add_compare_command(app),
                                         cli::add_memory_command(app),
                                         cli::add_train_command(app),
                                         cli::add_job_command(app),
                                         cli::add_lessons_command(app),
                                         cli::add_record_command(app),
                                         cli::add_capture_command(app)};
  for (auto& command : commands)
    command.parser->set_version_flag("--version", std::string("ringviz ") + RINGVIZ_VERSION);
#ifdef RINGVIZ_WITH_GUI
  // Without a subcommand ringviz opens the GUI, configured by the common options.
  cli::ConfigFlags gui_config;
  cli::add_config_flags(app, gui_config);
  gui::GuiFlags gui_flags;
  gui::add_gui_flags(app, gui_flags);
#endif
  cli::refuse_empty_values(app, "ringviz --help");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version);
  } catch (const CLI::ParseError& error) {
    std::string help = "ringviz --help";
    for (auto& command : commands)
      if (command.parser->parsed()) help = "ringviz " + command.parser->get_name() + " --help";
    std::cerr << "ringviz: " << escape_for_message(cli::parse_error_message(error, app, help)) << "\n";
    return 2;
  } catch (const InputError& error) {
    std::cerr << "ringviz: " << escape_for_message(error.what()) << "\n";
    return 2;
  }

  try {
    for (auto& command : commands)
      if (command.parser->parsed()) return command.run();
#ifdef RINGVIZ_WITH_GUI
    // Empty unless given: the saved language opens the GUI, an explicit --lang overrides it.
    gui_flags.lang = app.get_option("--lang")->count() > 0 ? gui_config.lang : std::string();
    gui_flags.verbose = gui_config.verbose;
    return gui::run_gui(gui_flags, cli::config_from_flags(gui_config), cli::backend_from_flags(gui_config),
                        app.get_option("--count")->count() > 0);
#else
    // A build without the GUI: the default lesson as a trace.
    return commands.front().run();
#endif
  } catch (const InputError& error) {
    std::cerr << "ringviz: " << escape_for_message(error.what()) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    // The size checks ran before the buffers were allocated, so memory shrank since, or a
    // structure outgrew what they count: say what is left now (a failing machine: exit 1).
    std::cerr << "ringviz: out of memory: an allocation failed although the size check passed ("
              << static_cast<double>(available_host_memory_bytes()) / 1e9
              << " GB free to this process once the run's memory is released); choose a smaller --count or "
                 "fewer --gpus, or free memory\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "ringviz: error: " << escape_for_message(error.what()) << "\n";
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A file past the size limit (ulimit -f) is a failed write to report, not a core dump.
  std::signal(SIGXFSZ, SIG_IGN);
  return ringviz::check_stdout_at_exit(run_command_line(argc, argv));
}
