#include "app/gui/teaching/predict.h"

#include <algorithm>
#include <cstdint>

namespace ringviz::gui {

std::optional<PredictQuestion> make_question(const Schedule& schedule, int round) {
  if (round < 1 || round > schedule.round_count()) return std::nullopt;
  const Round& r = schedule.rounds[static_cast<std::size_t>(round - 1)];
  int ranks = static_cast<int>(schedule.owned_slot.size());
  for (const Transfer& t : r.transfers) ranks = std::max({ranks, t.src + 1, t.dst + 1});
  if (ranks == 0) return std::nullopt;
  // A GPU picked by a fixed hash of the round (walking up the ring to one that receives): a
  // plain rotation would make the answers a pattern to spot instead of the ring to understand
  // (on a ring, asking GPU r in round r+1 always gives the last slot).
  std::uint64_t hash = static_cast<std::uint64_t>(round) * 0x9E3779B97F4A7C15ull;  // splitmix64's mix
  hash = (hash ^ (hash >> 30)) * 0xBF58476D1CE4E5B9ull;
  hash = (hash ^ (hash >> 27)) * 0x94D049BB133111EBull;
  hash ^= hash >> 31;
  const int first = static_cast<int>(hash % static_cast<std::uint64_t>(ranks));
  for (int k = 0; k < ranks; ++k) {
    const int gpu = (first + k) % ranks;
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
