// A link is a view (app/web/view_link.h, link_start.h): the page's URL fragment read back by the
// GUI's own flags. Every key a link holds, the fragments it refuses (each with the reason a
// notice shows), and every view's link written and read back to the same view.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "app/gui/hosts/startup.h"
#include "app/gui/share/view_command.h"
#include "app/web/link_start.h"
#include "app/web/view_link.h"
#include "core/engine/session.h"
#include "core/model/checked_value.h"
#include "core/model/input_error.h"
#include "tests/support/config_builder.h"
#include "tests/support/view_state_checks.h"

using namespace ringviz;
using namespace ringviz::web;
using ringviz::gui::ViewState;
using ringviz::test::ConfigBuilder;

namespace {

const std::string kSource = RINGVIZ_SOURCE_DIR;
const std::string kCapture = kSource + "/assets/captures/straggler-4gpus.json";

// The shipped lessons where parse_link looks for them ($RINGVIZ_LESSONS, as the page sets it).
void use_shipped_lessons() { ::setenv("RINGVIZ_LESSONS", (kSource + "/assets/lessons").c_str(), 1); }

// The view a link opens, as the page shows it: the start's request and the link's own fields,
// the round placed on the collective's timeline as the page places it.
ViewState view_of(const LinkStart& link) {
  ViewState state;
  state.config = link.start.request.config;
  state.open = link.start.request.replay;
  state.view = link.start.request.view;
  if (!link.round.empty()) {
    const Session session(state.config, make_cpu_backend(1), SessionOptions{0});
    state.round = gui::parse_round(link.round, session.round_count());
  }
  state.language = link.language;
  state.present = link.present;
  state.predict = link.predict;
  return state;
}

void check_round_trip(const ViewState& state) {
  const std::string fragment = view_link_fragment(state);
  CAPTURE(fragment);
  // The fragment stands for exactly the Copy command's arguments...
  CHECK(fragment_arguments(fragment) == gui::view_command_args(state));
  // ...and opens the same view.
  test::check_same_view(view_of(parse_link(fragment)), state);
}

}  // namespace

TEST_CASE("the default view's link is short and opens the default view") {
  const ViewState state;
  CHECK(view_link_fragment(state) == "#op=allreduce&gpus=4&count=8&lang=en");
  check_round_trip(state);
  // An empty fragment, or a bare '#', is the default view too.
  test::check_same_view(view_of(parse_link("")), state);
  test::check_same_view(view_of(parse_link("#")), state);
}

TEST_CASE("every key a link holds opens what it names") {
  use_shipped_lessons();
  const LinkStart all = parse_link(
      "#op=allgather&algo=rhd&order=nccl&gpus=8&count=16&dtype=bf16&reduce=max&init=random:42&view=memory"
      "&round=2.5&lang=zh&present&predict&channels=2&slices=4");
  const Config& config = all.start.request.config;
  CHECK(config.op == Op::allgather);
  CHECK(config.algorithm == Algorithm::rhd);
  CHECK(config.order == Order::nccl);
  CHECK(config.ranks == 8);
  CHECK(config.count == 16);
  CHECK(config.dtype == DType::bf16);
  CHECK(config.reduce == ReduceOp::max);
  CHECK(config.init.kind == InitKind::random);
  CHECK(config.init.random_seed == 42);
  CHECK(config.channels == 2);
  CHECK(config.slices == 4);
  CHECK(all.start.request.view == CentreView::memory);
  CHECK(all.round == "2.5");
  CHECK(all.language == Language::zh);
  CHECK(all.language_given);
  CHECK(all.present);
  CHECK(all.predict);
  CHECK_FALSE(all.lesson.has_value());

  // open: a recorded run, read when the link is.
  const LinkStart replay = parse_link("#open=" + kCapture + "&round=3");
  CHECK(replay.start.request.replay == kCapture);
  REQUIRE(replay.start.replay.has_value());
  CHECK(replay.round == "3");

  // lesson and scene: a shipped lesson paused at the start of that scene.
  const LinkStart lesson = parse_link("#lesson=05-allreduce-traffic&scene=2");
  REQUIRE(lesson.lesson.has_value());
  CHECK(lesson.lesson->source.find("05-allreduce-traffic.json") != std::string::npos);
  REQUIRE(lesson.lesson->scenes.size() >= 2);
  CHECK(lesson.lesson_seconds == lesson.lesson->scenes[1].start_seconds);
  // Without a scene, its first.
  const LinkStart first = parse_link("#lesson=05-allreduce-traffic");
  REQUIRE(first.lesson.has_value());
  CHECK(first.lesson_seconds == first.lesson->scenes[0].start_seconds);

  // Without lang the language is not the link's choice.
  CHECK_FALSE(parse_link("#gpus=4").language_given);
}

TEST_CASE("a key a link does not hold is refused by name, however it is spelled") {
  for (const char* fragment : {"#screenshot=x.png", "#headless", "#dump-layout=a.json", "#state-file=s.json",
                               "#settings=mine.json", "#backend=cuda", "#op=allgather&bench-frames=10",
                               "#--op=allgather", "#OP=allgather"}) {
    CAPTURE(fragment);
    CHECK_THROWS_WITH_AS(parse_link(fragment), doctest::Contains("which a link does not hold"), InputError);
  }
  // Escapes cannot smuggle one in: keys are decoded before they are checked.
  CHECK_THROWS_WITH_AS(parse_link("#%73creenshot=x.png"), doctest::Contains("'screenshot'"), InputError);
  // lesson and scene are the page's keys, not flags: fragment_arguments without a lesson refuses them.
  CHECK_THROWS_AS(fragment_arguments("#lesson=05-allreduce-traffic"), InputError);
}

TEST_CASE("broken escapes and bad values are refused with the flag's own words") {
  use_shipped_lessons();
  for (const char* fragment : {"#gpus=%", "#gpus=%4", "#gpus=%zz", "#op=all%g0reduce"}) {
    CAPTURE(fragment);
    CHECK_THROWS_WITH_AS(parse_link(fragment), doctest::Contains("broken escape"), InputError);
  }
  CHECK_THROWS_WITH_AS(parse_link("#gpus=9999"), doctest::Contains("--gpus"), InputError);
  CHECK_THROWS_WITH_AS(parse_link("#gpus=four"), doctest::Contains("--gpus"), InputError);
  CHECK_THROWS_WITH_AS(parse_link("#view=nowhere"), doctest::Contains("--view"), InputError);
  CHECK_THROWS_WITH_AS(parse_link("#op=alltoallv"), doctest::Contains("--op"), InputError);
  CHECK_THROWS_WITH_AS(parse_link("#lang=fr"), doctest::Contains("--lang"), InputError);
  CHECK_THROWS_AS(parse_link("#gpus="), InputError);  // an empty value, as on the command line
  CHECK_THROWS_AS(parse_link("#gpus"), InputError);   // a value flag without its value
  CHECK_THROWS_AS(parse_link("#present=maybe"), InputError);
  CHECK_THROWS_AS(parse_link("#open=/nowhere/run.json"), InputError);
  CHECK_THROWS_WITH_AS(parse_link("#lesson=99-nothing"), doctest::Contains("is not a shipped lesson"), InputError);
  CHECK_THROWS_WITH_AS(parse_link("#lesson=05-allreduce-traffic&scene=0"), doctest::Contains("scene"), InputError);
  CHECK_THROWS_WITH_AS(parse_link("#lesson=05-allreduce-traffic&scene=99"), doctest::Contains("scene"), InputError);
  CHECK_THROWS_WITH_AS(parse_link("#lesson=05-allreduce-traffic&scene=two"), doctest::Contains("scene"), InputError);
  CHECK_THROWS_WITH_AS(parse_link("#scene=2"), doctest::Contains("needs a lesson"), InputError);
}

TEST_CASE("a fragment is forgiving where a URL is: empty pairs, '+' for a blank, escapes in any case") {
  CHECK(fragment_arguments("#&&gpus=8&&") == std::vector<std::string>{"--gpus", "8"});
  CHECK(fragment_arguments("gpus=8") == std::vector<std::string>{"--gpus", "8"});
  CHECK(fragment_arguments("#open=a+b%2fc%2Fd") == std::vector<std::string>{"--open", "a b/c/d"});
  CHECK(fragment_arguments("#present&predict") == std::vector<std::string>{"--present", "--predict"});
  // A value may hold '=': only the first one splits key from value.
  CHECK(fragment_arguments("#open=a%3Db=c") == std::vector<std::string>{"--open", "a=b=c"});
  LinkLesson lesson;
  CHECK(fragment_arguments("#lesson=06-ddp-vs-zero2&scene=3&gpus=2", &lesson) ==
        std::vector<std::string>{"--gpus", "2"});
  CHECK(lesson.name == "06-ddp-vs-zero2");
  CHECK(lesson.scene == "3");
}

TEST_CASE("every sample view comes back from its link: each operation and view mid-flight, the algorithm, order, type, reduction, inputs, pipelining and the classroom modes") {
  for (const ViewState& state : test::sample_views()) {
    CAPTURE(view_link_fragment(state));
    check_round_trip(state);
  }
}

TEST_CASE("a replayed file's path survives the fragment, whatever characters it holds") {
  ViewState replay;
  replay.open = kCapture;
  const std::string fragment = view_link_fragment(replay);
  CHECK(fragment.rfind("#open=" + kCapture, 0) == 0);  // a path's '/' and '-' need no escape
  const LinkStart link = parse_link(fragment);
  CHECK(link.start.request.replay == kCapture);

  // Characters that mean something in a fragment, or are not ASCII, are escaped and come back.
  ViewState odd;
  odd.open = "runs/a b&c=d#e%f+g?h/训练 1.json";
  const std::string encoded = view_link_fragment(odd);
  CAPTURE(encoded);
  for (const char special : {' ', '#', '+', '?'}) CHECK(encoded.find(special, 1) == std::string::npos);
  CHECK(encoded.find("&c") == std::string::npos);
  CHECK(fragment_arguments(encoded) == gui::view_command_args(odd));
}

TEST_CASE("a lesson and its scene are written after the view and read back") {
  use_shipped_lessons();
  ViewState state;
  const std::string fragment = view_link_fragment(state, LinkLesson{"06-ddp-vs-zero2", "3"});
  CHECK(fragment == "#op=allreduce&gpus=4&count=8&lang=en&lesson=06-ddp-vs-zero2&scene=3");
  const LinkStart link = parse_link(fragment);
  REQUIRE(link.lesson.has_value());
  REQUIRE(link.lesson->scenes.size() >= 3);
  CHECK(link.lesson_seconds == link.lesson->scenes[2].start_seconds);
  // A lesson without a scene writes no scene key.
  CHECK(view_link_fragment(state, LinkLesson{"06-ddp-vs-zero2", ""}).find("scene") == std::string::npos);
}
