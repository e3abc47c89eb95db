// The Copy command (app/gui/share/view_command.h) read back by ringviz's own parser: the common
// flags and the GUI's flags registered as main() registers them, the words split as a POSIX
// shell splits them, and the values interpreted as run_gui() interprets them. Every state must
// come back as it went in.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "app/options/config_flags.h"
#include "core/algorithms/registry.h"
#include "app/gui/hosts/gui_options.h"
#include "app/gui/hosts/startup.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/runtime/settings.h"
#include "core/model/checked_value.h"
#include "app/gui/share/view_command.h"
#include "app/gui/teaching/presentation_mode.h"
#include "app/gui/text/font_loader.h"
#include "app/gui/text/strings.h"
#include "core/engine/session.h"
#include "core/input/initial_values.h"
#include "tests/support/config_builder.h"
#include "tests/support/view_state_checks.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;
using namespace ringviz::gui;

namespace {

// What sh does to the words of a command without variables or globs: single quotes keep
// everything, a backslash outside quotes keeps the next character, blanks separate words.
std::vector<std::string> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false, quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '\'') quoted = false;
      else word += c;
    } else if (c == '\'') {
      quoted = in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      in_word = true;
    } else if (c == ' ') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  REQUIRE_FALSE(quoted);
  if (in_word) words.push_back(word);
  return words;
}

// The command line as `ringviz` would open it.
ViewState parse_back(const std::string& command) {
  std::vector<std::string> words = shell_words(command);
  REQUIRE(!words.empty());
  CHECK(words.front() == "ringviz");
  words.erase(words.begin());
  CLI::App app{"ringviz"};
  cli::ConfigFlags config_flags;
  cli::add_config_flags(app, config_flags);
  GuiFlags gui_flags;
  add_gui_flags(app, gui_flags);
  std::reverse(words.begin(), words.end());  // CLI11 takes the words last first
  app.parse(words);
  gui_flags.lang = config_flags.lang;  // as main() does

  ViewState state;
  state.config = cli::config_from_flags(config_flags);
  state.open = gui_flags.open;
  state.view = gui_flags.view.empty() ? CentreView::ring : parse_enum(kCentreViewNames, gui_flags.view, "--view");
  const ClassroomOptions classroom =
      classroom_options(gui_flags.lang, gui_flags.present, gui_flags.present_scale, gui_flags.predict);
  state.language = classroom.language;
  state.present = classroom.present;
  state.predict = classroom.predict;
  // --round is checked against the collective's length, as the hosts check it (an absent one is 0
  // and needs no session: a file: input need not exist for the command to be read).
  if (!gui_flags.round.empty()) {
    const Session session(state.config, make_cpu_backend(1), SessionOptions{0});
    state.round = parse_round(gui_flags.round, session.round_count());
  }
  return state;
}

void check_round_trip(const ViewState& state) {
  const std::string command = view_command(state);
  CAPTURE(command);
  test::check_same_view(parse_back(command), state);
}

}  // namespace

TEST_CASE("the command of the default view is short and reads back as the default view") {
  const ViewState state;
  CHECK(view_command(state) == "ringviz --op allreduce --gpus 4 --count 8 --lang en");
  check_round_trip(state);
}

TEST_CASE("the language is always written, English too, so the saved language cannot override it") {
  ViewState state;
  CHECK(view_command(state).find(" --lang en") != std::string::npos);
  state.language = Language::zh;
  CHECK(view_command(state).find(" --lang zh") != std::string::npos);
  CHECK(view_command(state).find("--lang en") == std::string::npos);
  // A flag-less read would come back as the saved language; with --lang it is the written one.
  check_round_trip(state);
}

TEST_CASE("every sample view reads back from its command: each operation and view mid-flight, the algorithm, order, type, reduction, inputs, pipelining and the classroom modes") {
  for (const ViewState& state : test::sample_views()) check_round_trip(state);
}

TEST_CASE("an in-switch reduction's command names the machine it needs") {
  ViewState in_switch;
  in_switch.config = ConfigBuilder().algorithm(Algorithm::nvls).ranks(8).count(64);
  CHECK(view_command(in_switch).find("--topology nvswitch:8") != std::string::npos);
}

TEST_CASE("a broadcast's root is written only where it is not GPU 0") {
  ViewState broadcast;
  broadcast.config = ConfigBuilder().op(Op::broadcast).ranks(5).root(3);
  CHECK(view_command(broadcast).find(" --root 3") != std::string::npos);
  broadcast.config.root = 0;
  CHECK(view_command(broadcast).find("--root") == std::string::npos);
}

TEST_CASE("inputs edited in the value table survive the command line") {
  ViewState state;
  state.config = ConfigBuilder().ranks(2).count(3).init(InitKind::values);
  state.config.init.values = numbers_of_reals({{0.1, -2.5, 1e-7}, {123456789.125, 0, 7}});
  state.language = Language::zh;
  state.view = CentreView::devices;
  CHECK(values_init_text(state.config.init.values) == "values:0.1,-2.5,1e-07/123456789.125,0,7");
  check_round_trip(state);
}

TEST_CASE("a file name with blanks and quotes is quoted for the shell and read back whole") {
  ViewState state;
  state.config.init = parse_init("file:/tmp/my inputs/it's \"here\".json");
  const std::string command = view_command(state);
  CHECK(command.find("'file:/tmp/my inputs/it'\\''s \"here\".json'") != std::string::npos);
  check_round_trip(state);

  ViewState replay;
  replay.open = "runs/straggler 4 gpus.json";
  replay.round = 3;
  CHECK(view_command(replay).rfind("ringviz --open 'runs/straggler 4 gpus.json'", 0) == 0);
  check_round_trip(replay);
}

TEST_CASE("shell quoting leaves plain words alone and quotes the rest") {
  CHECK(shell_quote("allreduce") == "allreduce");
  CHECK(shell_quote("values:1,2/3,4") == "values:1,2/3,4");
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("a b") == "'a b'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("$HOME;rm") == "'$HOME;rm'");
}

TEST_CASE("a value table that is not one is refused, naming the flag") {
  CHECK_THROWS_WITH_AS(parse_init("values:1,x/2,3", "--init"),
                       doctest::Contains("--init: 'values:1,x/2,3' is not values:ROWS ('x' is not a number"),
                       InputError);
  CHECK_THROWS_AS(parse_init("values:1,,2", "--init"), InputError);
  CHECK(values_init_text(parse_init("values:1,2/3,4").values) == "values:1,2/3,4");
}

TEST_CASE("a one-off --lang opens the GUI in that language but never becomes the saved one") {
  const auto dir = std::filesystem::temp_directory_path() / ("ringviz-lang-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "settings.json").string();
  std::string error;
  REQUIRE(save_preferences(path, Preferences{}, error));  // saved: English

  GuiFlags flags;
  flags.settings = path;
  flags.lang = "zh";
  const StartupPreferences startup = startup_preferences(flags, false);
  CHECK(startup.language == Language::zh);                // this run is in Chinese...
  CHECK(startup.preferences.language == Language::en);    // ...and the saved choice stays English

  // Without --lang the saved language opens the GUI.
  flags.lang.clear();
  CHECK(startup_preferences(flags, false).language == Language::en);

  // Starting in the run's language leaves the preferences as loaded: nothing to save.
  GuiApp app(ShowRequest{}, BackendChoice::cpu, startup.preferences, Host{});
  ClassroomMode classroom(classroom_options("zh", false, 0, false));
  classroom.start(app);
  CHECK(app.preferences() == startup.preferences);
  std::string missing;
  if (chinese_font_data(missing)) CHECK(app.language() == Language::zh);

  // Another preference changes and is saved: the language in the file is still English.
  app.preferences().speed = 2;
  REQUIRE(save_preferences(path, app.preferences(), error));
  CHECK(load_preferences(path).preferences.language == Language::en);

  // Only the user's own switch (L, the language menu) changes the saved language.
  CHECK(classroom.set_language(app, Language::en));
  CHECK(app.preferences().language == Language::en);
  if (chinese_font_data(missing)) {
    CHECK(classroom.set_language(app, Language::zh));
    CHECK(app.preferences().language == Language::zh);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("the language belongs to the GUI that runs, not to the process: two apps speak their own") {
  std::string missing;
  if (!chinese_font_data(missing)) {
    MESSAGE("no Chinese font here (" << missing << "): only the English app is checked");
  }
  GuiApp english(ShowRequest{}, BackendChoice::cpu, Preferences{}, Host{});
  GuiApp chinese(ShowRequest{}, BackendChoice::cpu, Preferences{}, Host{});
  ClassroomMode classroom(classroom_options("zh", false, 0, false));
  classroom.start(chinese);
  const Language expected = chinese_font_data(missing) ? Language::zh : Language::en;
  CHECK(chinese.language() == expected);
  CHECK(std::string(chinese.text().setup_title) == ui_strings_for(expected).setup_title);
  // Switching the second app left the first as it was.
  CHECK(english.language() == Language::en);
  CHECK(std::string(english.text().setup_title) == "Setup");
}
