#pragma once
#include <utility>
#include <vector>

namespace ringviz::gui {

// Time on the timeline, in rounds: position k (a whole number) is the state after k rounds,
// at rest; a position in (k, k+1) is round k+1 in flight. Within a round, packets travel
// during [0, kArrival), land at kArrival (the receiving cells change), flash until
// kFlashEnd, and the rest of the round is a pause to look at the result.
inline constexpr double kArrival = 0.6;
inline constexpr double kFlashEnd = 0.82;
inline constexpr double kSecondsPerRound = 1.6;  // at speed 1x
inline constexpr double kMinSpeed = 0.25;
inline constexpr double kMaxSpeed = 8.0;
inline constexpr double kLoopPauseSeconds = 1.0;

// Where the animation is inside one round, derived from the position.
struct RoundMoment {
  int round = 0;          // 1-based round in flight, or 0 at rest before the first
  int rest_round = 0;     // the state the cells show: rounds completed as far as the viewer sees
  bool in_flight = false; // packets are on their way
  double travel = 0;      // packets' eased progress along their arrows, 0..1
  double flash = 0;       // 1 at arrival fading to 0 at kFlashEnd; 0 otherwise
};

// Smooth start and stop for the packets.
double ease_in_out(double t);
RoundMoment moment_at(double position);

// The play/pause/step/seek state machine. No clocks inside: advance() is given the elapsed
// wall time, so tests and the benchmark can drive it deterministically.
class Playback {
 public:
  void set_round_count(int rounds);  // clamps the position into the new range
  int round_count() const { return rounds_; }
  double position() const { return position_; }
  RoundMoment moment() const { return moment_at(position_); }

  bool playing() const { return playing_; }
  bool animating() const { return playing_ || target_ >= 0; }
  double speed() const { return speed_; }
  bool loop() const { return loop_; }

  void play();
  void pause();
  void toggle_play();
  void step_forward();  // animates one round, then stops
  void step_back();     // jumps back to the previous rest state
  void go_to_start();
  void go_to_end();
  void seek(double position);  // stops playing
  void set_speed(double speed);
  void faster();
  void slower();
  void set_loop(bool loop) { loop_ = loop; }
  // Seconds each round lasts at 1x (a replay's measured pacing); empty: kSecondsPerRound each.
  void set_round_seconds(std::vector<double> seconds) { round_seconds_ = std::move(seconds); }
  const std::vector<double>& round_seconds() const { return round_seconds_; }
  // Wall seconds at 1x from position 0 to `position`, and the position `seconds` after 0.
  double seconds_until(double position) const;
  double position_after(double seconds) const { return moved(0, static_cast<double>(rounds_), seconds); }

  // Moves time forward by `seconds` of wall time; true when the position changed.
  bool advance(double seconds);

 private:
  int rounds_ = 0;
  double position_ = 0;
  double target_ = -1;  // where a step stops; -1 when none
  bool playing_ = false;
  double speed_ = 1.0;
  bool loop_ = false;
  double end_pause_ = 0;  // time already spent resting at the end before looping
  std::vector<double> round_seconds_;

  double round_length(int index) const;
  // `from` moved toward `limit` by `seconds` at 1x, round by round at each round's length.
  double moved(double from, double limit, double seconds) const;
};

}  // namespace ringviz::gui
