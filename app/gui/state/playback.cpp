#include "app/gui/state/playback.h"

#include <algorithm>
#include <cmath>

namespace ringviz::gui {

double ease_in_out(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return t < 0.5 ? 4 * t * t * t : 1 - std::pow(-2 * t + 2, 3) / 2;
}

RoundMoment moment_at(double position) {
  RoundMoment m;
  const double whole = std::floor(position);
  const double fraction = position - whole;
  const int base = static_cast<int>(whole);
  if (fraction <= 0) {
    m.round = base;
    m.rest_round = base;
    return m;
  }
  m.round = base + 1;
  if (fraction < kArrival) {
    m.in_flight = true;
    m.rest_round = base;
    m.travel = ease_in_out(fraction / kArrival);
  } else {
    m.rest_round = base + 1;
    m.travel = 1;
    if (fraction < kFlashEnd) m.flash = 1.0 - (fraction - kArrival) / (kFlashEnd - kArrival);
  }
  return m;
}

void Playback::set_round_count(int rounds) {
  rounds_ = std::max(0, rounds);
  position_ = std::clamp(position_, 0.0, static_cast<double>(rounds_));
  if (target_ > rounds_) target_ = -1;
  if (rounds_ == 0) playing_ = false;
}

void Playback::play() {
  if (rounds_ == 0) return;
  if (position_ >= rounds_ && !loop_) position_ = 0;  // play at the end starts over
  playing_ = true;
  target_ = -1;
  end_pause_ = 0;
}

void Playback::pause() {
  playing_ = false;
  target_ = -1;
}

void Playback::toggle_play() {
  if (playing_) pause();
  else play();
}

void Playback::step_forward() {
  playing_ = false;
  // A step pressed mid-animation finishes that round at once and starts the next one.
  const double from = target_ >= 0 ? target_ : std::floor(position_);
  if (from >= rounds_) {
    position_ = rounds_;
    target_ = -1;
    return;
  }
  position_ = from;
  target_ = from + 1;
}

void Playback::step_back() {
  playing_ = false;
  target_ = -1;
  const double whole = std::floor(position_);
  position_ = std::max(0.0, whole < position_ ? whole : whole - 1);
}

void Playback::go_to_start() { seek(0); }
void Playback::go_to_end() { seek(rounds_); }

void Playback::seek(double position) {
  playing_ = false;
  target_ = -1;
  position_ = std::clamp(position, 0.0, static_cast<double>(rounds_));
}

void Playback::set_speed(double speed) { speed_ = std::clamp(speed, kMinSpeed, kMaxSpeed); }
void Playback::faster() { set_speed(speed_ * 2); }
void Playback::slower() { set_speed(speed_ / 2); }

double Playback::round_length(int index) const {
  if (index >= 0 && index < static_cast<int>(round_seconds_.size())) return round_seconds_[static_cast<std::size_t>(index)];
  return kSecondsPerRound;
}

double Playback::moved(double from, double limit, double seconds) const {
  while (seconds > 0 && from < limit) {
    const double length = round_length(static_cast<int>(std::floor(from)));
    const double step = std::min(std::floor(from) + 1, limit) - from;
    if (seconds < step * length) return from + seconds / length;
    from += step;
    seconds -= step * length;
  }
  return std::min(from, limit);
}

double Playback::seconds_until(double position) const {
  double seconds = 0;
  for (int round = 0; round < rounds_ && round < position; ++round)
    seconds += std::min(1.0, position - round) * round_length(round);
  return seconds;
}

bool Playback::advance(double seconds) {
  if (!animating() || seconds <= 0) return false;
  if (target_ >= 0) {
    position_ = moved(position_, target_, seconds * speed_);
    if (position_ >= target_) target_ = -1;
    return true;
  }
  if (position_ < rounds_) {
    position_ = moved(position_, static_cast<double>(rounds_), seconds * speed_);
    if (position_ >= rounds_ && !loop_) playing_ = false;
    return true;
  }
  // At the end while looping: rest a moment on the result, then start over.
  end_pause_ += seconds * speed_;
  if (end_pause_ >= kLoopPauseSeconds) {
    end_pause_ = 0;
    position_ = 0;
    return true;
  }
  return false;
}

}  // namespace ringviz::gui
