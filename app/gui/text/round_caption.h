#pragma once
// The caption panel's words, read off the schedule that runs: who sends what to whom in the
// round on screen, so that a tree, a pairwise exchange or a hub is never described as a ring
// (docs/architecture.md, "Words for the algorithm").
#include <optional>
#include <string>

#include "core/engine/traffic.h"
#include "core/model/config.h"
#include "core/model/text.h"
#include "core/schedule/rounds.h"

namespace ringviz::gui {

struct RoundCaption {
  std::string title;
  std::string body;
  // The phase of the round on screen, which colours the title; none before the first round,
  // at the end and with one GPU.
  std::optional<Phase> phase;
};

// What a cached RoundCaption was read for. The words change only with the session, the round,
// the end and the language; reading them off a round of direct on 256 GPUs (65280 transfers)
// every frame would cost milliseconds, so the caption panel and the recording stage keep one.
struct RoundCaptionKey {
  int generation = -1;
  int round = -1;
  bool finished = false;
  Language language = Language::en;
  bool operator==(const RoundCaptionKey&) const = default;
};

// The trees and naive reduce into GPU 0 and broadcast from it: their phases are "reduce" and
// "broadcast", not reduce-scatter and all-gather.
bool reduces_into_one_gpu(Algorithm algorithm);

// `round`: 0 before the first round, k while round k is in flight or has just landed;
// `finished`: the last round has landed and settled. In `language`.
RoundCaption round_caption(Language language, const Config& config, const Schedule& schedule,
                           const Traffic& traffic, int round, bool finished);

}  // namespace ringviz::gui
