// The playback clock: stepping, playing, looping and the moments inside a round.
#include <doctest/doctest.h>

#include "app/gui/state/playback.h"

using namespace ringviz::gui;

TEST_CASE("a whole position is a rest state and a fraction is a round in flight") {
  RoundMoment rest = moment_at(2.0);
  CHECK(rest.round == 2);
  CHECK(rest.rest_round == 2);
  CHECK_FALSE(rest.in_flight);
  RoundMoment flying = moment_at(2.3);
  CHECK(flying.round == 3);
  CHECK(flying.rest_round == 2);
  CHECK(flying.in_flight);
  CHECK(flying.travel > 0.0);
  CHECK(flying.travel < 1.0);
  RoundMoment landed = moment_at(2.0 + kArrival + 0.01);
  CHECK(landed.rest_round == 3);
  CHECK(landed.flash > 0.0);
  CHECK_FALSE(landed.in_flight);
}

TEST_CASE("easing starts and ends at rest and is symmetric") {
  CHECK(ease_in_out(0.0) == doctest::Approx(0.0));
  CHECK(ease_in_out(1.0) == doctest::Approx(1.0));
  CHECK(ease_in_out(0.5) == doctest::Approx(0.5));
  CHECK(ease_in_out(0.25) == doctest::Approx(1.0 - ease_in_out(0.75)));
}

TEST_CASE("step forward animates exactly one round, step back jumps to the previous rest state") {
  Playback playback;
  playback.set_round_count(6);
  playback.step_forward();
  CHECK(playback.animating());
  for (int i = 0; i < 1000 && playback.animating(); ++i) playback.advance(0.05);
  CHECK_FALSE(playback.animating());
  CHECK(playback.position() == doctest::Approx(1.0));
  playback.step_forward();
  playback.advance(0.1);
  playback.step_forward();  // mid-animation: finish round 2 at once, then animate round 3
  playback.advance(100.0);
  CHECK(playback.position() == doctest::Approx(3.0));
  playback.seek(2.4);
  playback.step_back();
  CHECK(playback.position() == doctest::Approx(2.0));
  playback.step_back();
  CHECK(playback.position() == doctest::Approx(1.0));
}

TEST_CASE("playing stops at the end unless looping, and speed stays within 0.25x to 8x") {
  Playback playback;
  playback.set_round_count(2);
  playback.play();
  playback.advance(kSecondsPerRound * 10);
  CHECK(playback.position() == doctest::Approx(2.0));
  CHECK_FALSE(playback.playing());
  playback.set_loop(true);
  playback.play();
  playback.advance(kLoopPauseSeconds + 0.01);  // rests on the result, then starts over
  CHECK(playback.position() == doctest::Approx(0.0));
  CHECK(playback.playing());
  for (int i = 0; i < 10; ++i) playback.faster();
  CHECK(playback.speed() == doctest::Approx(kMaxSpeed));
  for (int i = 0; i < 10; ++i) playback.slower();
  CHECK(playback.speed() == doctest::Approx(kMinSpeed));
}

TEST_CASE("a shorter collective clamps the position") {
  Playback playback;
  playback.set_round_count(10);
  playback.seek(8);
  playback.set_round_count(3);
  CHECK(playback.position() == doctest::Approx(3.0));
}
