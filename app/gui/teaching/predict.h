#pragma once
#include <optional>
#include <vector>

#include "core/schedule/rounds.h"

// Predict mode's rules, apart from any drawing so that they can be tested without GL: before
// a round plays, the student is asked which slot of one highlighted GPU that round will change,
// clicks a cell, and the round then plays and settles the answer.

namespace ringviz::gui {

// "Before round `round`, which slot of GPU `gpu` will change?"
struct PredictQuestion {
  int round = 0;           // 1-based: the round about to play
  int gpu = 0;
  std::vector<int> slots;  // every slot `gpu` receives in that round; any of them is right
  bool operator==(const PredictQuestion&) const = default;
};

// The question for `round` of `schedule`. The GPU asked about changes from round to round in
// a fixed pseudo-random order, and it is always one that receives something in that round.
// nullopt when there is no such round or nobody receives in it.
std::optional<PredictQuestion> make_question(const Schedule& schedule, int round);

struct PredictAnswer {
  PredictQuestion question;
  int picked_slot = 0;
  bool right = false;
};

class PredictQuiz {
 public:
  // Poses the question for `round`; false (and nothing pending) when there is none to ask.
  bool ask(const Schedule& schedule, int round);
  const std::optional<PredictQuestion>& pending() const { return pending_; }

  // A click on GPU `gpu`'s slot `slot` while a question is pending. A click on any other GPU
  // is not an answer (false, the question stays); otherwise it is scored and the question
  // becomes last_answer().
  bool answer(int gpu, int slot);
  const std::optional<PredictAnswer>& last_answer() const { return last_; }

  // The round the student has answered and may now watch (0: none).
  int answered_round() const { return last_ ? last_->question.round : 0; }

  int right() const { return right_; }
  int answered() const { return answered_; }

  // Drops the pending question (e.g. the student stepped back) but keeps the score.
  void cancel() { pending_.reset(); }
  // A fresh start: no question, no verdict, score 0 of 0.
  void reset();

 private:
  std::optional<PredictQuestion> pending_;
  std::optional<PredictAnswer> last_;
  int right_ = 0;
  int answered_ = 0;
};

}  // namespace ringviz::gui
