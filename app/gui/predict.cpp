#include "app/gui/predict.h"

#include <algorithm>

namespace ringviz::gui {

std::optional<PredictQuestion> make_question(const Schedule& schedule, int round) {
  if (round < 1 || round > schedule.round_count()) return std::nullopt;
  const Round& r = schedule.rounds[static_cast<std::size_t>(round - 1)];
  int ranks = static_cast<int>(schedule.owned_slot.size());
  for (const Transfer& t : r.transfers) ranks = std::max({ranks, t.src + 1, t.dst + 1});
  if (ranks == 0) return std::nullopt;
  // Start from GPU (round - 1) and walk up the ring to the first GPU that receives something:
  // on a ring every GPU receives every round, so this simply takes turns.
  for (int k = 0; k < ranks; ++k) {
    const int gpu = (round - 1 + k) % ranks;
    PredictQuestion question{round, gpu, {}};
    for (const Transfer& t : r.transfers)
      if (t.dst == gpu) question.slots.push_back(t.slot);
    if (question.slots.empty()) continue;
    std::sort(question.slots.begin(), question.slots.end());
    question.slots.erase(std::unique(question.slots.begin(), question.slots.end()), question.slots.end());
    return question;
  }
  return std::nullopt;
}

bool PredictQuiz::ask(const Schedule& schedule, int round) {
  pending_ = make_question(schedule, round);
  return pending_.has_value();
}

bool PredictQuiz::answer(int gpu, int slot) {
  if (!pending_ || gpu != pending_->gpu) return false;
  const auto& slots = pending_->slots;
  const bool right = std::find(slots.begin(), slots.end(), slot) != slots.end();
  last_ = PredictAnswer{*pending_, slot, right};
  pending_.reset();
  ++answered_;
  if (right) ++right_;
  return true;
}

void PredictQuiz::reset() {
  pending_.reset();
  last_.reset();
  right_ = 0;
  answered_ = 0;
}

}  // namespace ringviz::gui
