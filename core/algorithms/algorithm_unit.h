#pragma once
// One algorithm, whole (docs/architecture.md, "Algorithms: one unit each"): its names, the ops
// it has, its schedule, its cost formula and every word the trace, the CLI and the GUI say
// about it, in English and Chinese. Each unit fills one AlgorithmUnit in its own file under
// core/algorithms/; the registry (registry.h) is the only code that chooses among them.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/algorithms/algorithm_list.h"
#include "core/model/config.h"
#include "core/model/text.h"
#include "core/schedule/rounds.h"

namespace ringviz {

// The same words in both languages; printf-style where they take numbers (see formatted() in
// unit_words.h). Always string literals, so `en` and `zh` end in a NUL.
struct Words {
  std::string_view en;
  std::string_view zh;
  std::string_view in(Language language) const { return language == Language::zh ? zh : en; }
  bool empty() const { return en.empty(); }
};

// What a caption is asked about: the run, its lock-step rounds and (for one round) which.
struct CaptionContext {
  Language language = Language::en;
  const Config& config;
  const Schedule& schedule;
  int round = 0;  // 1-based; 0 before the first
  // The reduction's partial results as the GUI words them ("partial sums", "partial sum").
  std::string_view partials;
  std::string_view partial;
};

// How a round's phase is named. The unit picks; the GUI words it with the words every
// algorithm shares.
enum class PhaseWord { reduce_scatter, all_gather, reduce, broadcast, gather, scatter, all_to_all };
// What holds after the last reducing round of an AllReduce.
enum class AfterReduce { each_owns_slot, root_holds_all, taking_part_own_slot };

// The bytes one GPU sends, as a formula of N and M and with this run's numbers.
struct TrafficFormula {
  std::string formula;  // "rhd AllReduce sends, per GPU:  2(N-1)/N x M"
  std::string values;   // the same with this run's N and M: "= 2 x (4-1)/4 x 64 B = 96 B"
  std::string note;     // when the formula holds only for some N; empty otherwise
  double busiest_bytes = 0;  // what the busiest GPU sends, by the formula
};

// The caption panel's words (app/gui/text/round_caption.cpp asks, these answer).
struct AlgorithmCaptions {
  // true: start, round and done are whole paragraphs (the ring's, from the source article). false:
  // start is the plan after the shared "every GPU holds ...", round is one sentence the shared
  // "what holds now" follows, and the busiest GPU's bytes close the run.
  bool whole_story = false;
  std::string (*start)(const CaptionContext&) = nullptr;
  std::string (*round)(const CaptionContext&) = nullptr;
  // The last caption's body where the shared one does not fit; "" keeps the shared one.
  std::string (*done)(const CaptionContext&) = nullptr;
  // nullptr: reduce-scatter and all-gather, by the round's phase.
  PhaseWord (*phase)(const CaptionContext&, const Round&) = nullptr;
  // nullptr: every GPU owns its slot after the reduce rounds.
  AfterReduce (*after_reduce)(const CaptionContext&) = nullptr;
};

struct AlgorithmUnit {
  Algorithm id;
  // Printed and read on the command line, in documents and lessons; aliases are also read.
  std::string_view name;
  std::string_view aliases;
  std::string_view help;  // --help, after the name
  Words title;            // how a trace report's title names it: "Ring", "Tree"
  Words menu_name;        // the GUI's algorithm menu; empty: `name`
  Words label;            // before an op in a sentence ("Ring AllReduce"); empty: `name`
  std::array<std::uint8_t, 3> chart_colour;  // its line in the Compare tab
  // Reduces everything into GPU 0 and broadcasts from it (naive and the trees): the GUI names
  // its phases reduce and broadcast.
  bool reduces_into_one_gpu = false;
  // Sends only to its neighbours round a ring (the rings): only such an algorithm's words may
  // speak of a ring or of neighbours.
  bool ring_neighbours = false;
  // Reduces inside an NVSwitch (NVLS, NVLink SHARP): runs only where every GPU shares a switch
  // that reduces, and is priced by NCCL's NVLS model (core/nccl), not by the contention
  // simulation, which has no in-switch reduction. Its schedule sets Schedule::through_switch.
  bool reduces_in_switch = false;
  // Channels the algorithm's own rounds run on, each transfer naming its own in step.channel
  // (the bidirectional ring: one per direction); --channels C multiplies them.
  int own_channels = 1;
  // With own_channels above 1, one name per own channel ("clockwise"): the views name a lane by
  // it rather than by a channel number (a clockwise half, channel 1 counter-clockwise).
  std::span<const Words> lane_names = {};

  bool (*supports)(Op op);
  // The lock-step rounds (docs/architecture.md, "Collective semantics"); the registry pipelines
  // them for --channels and --slices. Only called for a supported op.
  Schedule (*rounds)(const Config& config);
  // The α-β-γ cost of one collective (docs/architecture.md, "Cost model"); `cost_note` follows
  // it where the formula needs a word (the trees' full binary tree).
  std::string_view (*cost_shape)(Op op);
  Words cost_note;
  // The traffic panel's formula; `subject` names the algorithm and op ("Ring AllReduce");
  // `root` is a broadcast's source GPU (Config::root).
  TrafficFormula (*traffic)(Language language, Op op, int ranks, int root, double buffer_bytes,
                            const std::string& subject);
  // Paragraphs after the trace report's byte table (the source article's formula for the rings), with
  // byte counts written by `quantity`; nullptr: the table alone.
  std::vector<std::string> (*trace_traffic_notes)(Language language, const Config& config,
                                                  std::string (*quantity)(double)) = nullptr;
  AlgorithmCaptions captions;
  // Every Words its captions, formulas and notes use (titles and cost_note aside): the GUI's font
  // atlas holds the glyphs of all of them before any is shown.
  std::span<const Words> words;
};

}  // namespace ringviz
