// Classroom modes without GL: predict mode's questions and score, presentation mode's layout,
// text size range and idle cursor.
#include <doctest/doctest.h>

#include <limits>
#include <set>

#include "app/gui/layout/panel_layout.h"
#include "app/gui/teaching/predict.h"
#include "app/gui/layout/presentation.h"
#include "core/model/config.h"
#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;
using namespace ringviz::gui;

namespace {

Schedule ring(Op op, int ranks, Order order = Order::seed) {
  const Config config = ConfigBuilder().op(op).ranks(ranks).count(ranks * 2).order(order);
  return make_schedule(config);
}

// The slots `gpu` receives in `round`, read straight from the schedule.
std::vector<int> received(const Schedule& schedule, int round, int gpu) {
  std::set<int> slots;
  for (const Transfer& t : schedule.rounds[static_cast<std::size_t>(round - 1)].transfers)
    if (t.dst == gpu) slots.insert(t.slot);
  return {slots.begin(), slots.end()};
}

}  // namespace

TEST_CASE("every round of a ring collective has a question whose answer is the slot the asked GPU receives") {
  for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce}) {
    for (int ranks : {2, 3, 4, 8}) {
      CAPTURE(op_name(op));
      CAPTURE(ranks);
      const Schedule schedule = ring(op, ranks);
      for (int round = 1; round <= schedule.round_count(); ++round) {
        CAPTURE(round);
        const auto question = make_question(schedule, round);
        REQUIRE(question.has_value());
        CHECK(question->round == round);
        CHECK(question->gpu >= 0);
        CHECK(question->gpu < ranks);
        CHECK(question->slots == received(schedule, round, question->gpu));
        CHECK(question->slots.size() == 1);  // a ring delivers one slot per GPU per round
      }
    }
  }
}

TEST_CASE("in the source article's ReduceScatter order, GPU g receives slot (g - 1 - t) mod N in step t") {
  const int n = 4;
  const Schedule schedule = ring(Op::reducescatter, n);
  for (int round = 1; round <= n - 1; ++round) {
    const auto question = make_question(schedule, round);
    REQUIRE(question.has_value());
    const int t = round - 1;
    CHECK(question->slots == std::vector<int>{(((question->gpu - 1 - t) % n) + n) % n});
  }
}

TEST_CASE("the GPU asked about is not the same in every round") {
  const Schedule schedule = ring(Op::allreduce, 8);
  std::set<int> asked;
  for (int round = 1; round <= schedule.round_count(); ++round) asked.insert(make_question(schedule, round)->gpu);
  CHECK(asked.size() >= 3);
}

TEST_CASE("there is nothing to ask before round 0, after the last round, or with one GPU") {
  const Schedule schedule = ring(Op::allreduce, 4);
  CHECK_FALSE(make_question(schedule, 0).has_value());
  CHECK_FALSE(make_question(schedule, schedule.round_count() + 1).has_value());
  CHECK_FALSE(make_question(ring(Op::allreduce, 1), 1).has_value());
  PredictQuiz quiz;
  CHECK_FALSE(quiz.ask(schedule, 99));
  CHECK_FALSE(quiz.pending().has_value());
}

TEST_CASE("the quiz scores answers on the highlighted GPU and ignores clicks elsewhere") {
  const Schedule schedule = ring(Op::allreduce, 4);
  PredictQuiz quiz;
  REQUIRE(quiz.ask(schedule, 1));
  const PredictQuestion first = *quiz.pending();
  const int right_slot = first.slots.front();
  const int other_gpu = (first.gpu + 1) % 4;

  SUBCASE("a click on another GPU is not an answer") {
    CHECK_FALSE(quiz.answer(other_gpu, right_slot));
    CHECK(quiz.pending().has_value());
    CHECK(quiz.answered() == 0);
    CHECK_FALSE(quiz.last_answer().has_value());
  }
  SUBCASE("the right slot scores one of one") {
    CHECK(quiz.answer(first.gpu, right_slot));
    CHECK_FALSE(quiz.pending().has_value());
    CHECK(quiz.right() == 1);
    CHECK(quiz.answered() == 1);
    REQUIRE(quiz.last_answer().has_value());
    CHECK(quiz.last_answer()->right);
    CHECK(quiz.last_answer()->question == first);
    CHECK(quiz.answered_round() == 1);
  }
  SUBCASE("a wrong slot is recorded with the slot picked, and the score keeps running") {
    const int wrong_slot = (right_slot + 1) % 4;
    CHECK(quiz.answer(first.gpu, wrong_slot));
    CHECK(quiz.right() == 0);
    CHECK(quiz.answered() == 1);
    CHECK_FALSE(quiz.last_answer()->right);
    CHECK(quiz.last_answer()->picked_slot == wrong_slot);

    REQUIRE(quiz.ask(schedule, 2));
    const PredictQuestion second = *quiz.pending();
    CHECK(quiz.answer(second.gpu, second.slots.front()));
    CHECK(quiz.right() == 1);
    CHECK(quiz.answered() == 2);
    CHECK(quiz.answered_round() == 2);

    quiz.reset();
    CHECK(quiz.right() == 0);
    CHECK(quiz.answered() == 0);
    CHECK_FALSE(quiz.last_answer().has_value());
  }
  SUBCASE("a cancelled question keeps the score and takes no answer") {
    quiz.cancel();
    CHECK_FALSE(quiz.answer(first.gpu, right_slot));
    CHECK(quiz.answered() == 0);
  }
}

TEST_CASE("presentation layout hides the setup panel and gives the ring view the freed width") {
  for (auto [width, height] : {std::pair{1600.0f, 900.0f}, {1920.0f, 1080.0f}, {1280.0f, 720.0f}, {3840.0f, 2160.0f}}) {
    for (float scale : {1.5f, 2.0f, 3.0f}) {
      CAPTURE(width);
      CAPTURE(scale);
      // Against the normal layout at the same text size: what hiding the setup panel frees.
      const PanelLayout normal = layout_panels(width, height, scale);
      const PanelLayout present = layout_presentation_panels(width, height, scale);
      CHECK(present.setup.w == 0);
      CHECK(present.setup.h == 0);
      CHECK(present.view.w > normal.view.w);
      CHECK(present.view.w >= width * 0.69f);
      CHECK(present.view.h > 0);
      // Caption above the view, both beside the right column; controls along the bottom.
      CHECK(present.caption.bottom() == doctest::Approx(present.view.y));
      CHECK(present.view.right() == doctest::Approx(present.round_table.x));
      CHECK(present.traffic.y == doctest::Approx(present.round_table.bottom()));
      CHECK(present.controls.bottom() == doctest::Approx(height));
      CHECK(present.controls.w == doctest::Approx(width));
      const Rect panels[] = {present.caption, present.view, present.round_table, present.traffic, present.controls};
      for (std::size_t i = 0; i < std::size(panels); ++i)
        for (std::size_t j = i + 1; j < std::size(panels); ++j) CHECK_FALSE(panels[i].overlaps(panels[j]));
    }
  }
}

TEST_CASE("presentation layout keeps transfers and traffic only where they fit at full width") {
  const PanelLayout narrow = layout_presentation_panels(1600, 900, 2.0f);
  CHECK(narrow.round_table.w == 0);
  CHECK(narrow.traffic.w == 0);
  CHECK(narrow.view.w == 1600);
  const PanelLayout wide = layout_presentation_panels(1920, 1080, 1.5f);
  CHECK(wide.round_table.w == doctest::Approx(480));
  CHECK(wide.traffic.w == doctest::Approx(480));
}

TEST_CASE("presentation text size stays between 1.5x and 3x") {
  CHECK(clamp_presentation_scale(1.0f) == 1.5f);
  CHECK(clamp_presentation_scale(2.25f) == 2.25f);
  CHECK(clamp_presentation_scale(9.0f) == 3.0f);
  CHECK(clamp_presentation_scale(std::numeric_limits<float>::quiet_NaN()) == kDefaultPresentationScale);
}

TEST_CASE("the cursor hides after two seconds of stillness and comes back on any movement or click") {
  CursorIdle idle;
  CHECK_FALSE(idle.update(100, 100, false, 0.016));
  CHECK_FALSE(idle.update(100, 100, false, 1.0));
  CHECK_FALSE(idle.update(100, 100, false, 0.9));
  CHECK(idle.update(100, 100, false, 0.2));  // 2.1 s still
  CHECK(idle.hidden());
  SUBCASE("movement") { CHECK_FALSE(idle.update(101, 100, false, 0.016)); }
  SUBCASE("a button") { CHECK_FALSE(idle.update(100, 100, true, 0.016)); }
  SUBCASE("reset") {
    idle.reset();
    CHECK_FALSE(idle.hidden());
  }
}
