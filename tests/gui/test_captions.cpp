// The caption and the traffic panel describe the algorithm that runs: every round's words come
// from its transfers, no algorithm but the ring is called a ring, and the traffic formula of
// each algorithm adds up to what its schedule sends.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/round_caption.h"
#include "app/gui/text/strings.h"
#include "app/gui/text/traffic_formula.h"
#include "core/engine/traffic.h"
#include "core/model/layout.h"
#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;
using namespace ringviz::gui;

namespace {

Config config_of(Algorithm algorithm, Op op, int ranks, ReduceOp reduce = ReduceOp::sum) {
  return ConfigBuilder().algorithm(algorithm).op(op).ranks(ranks).count(3 * ranks).reduce(reduce);
}

struct Run {
  Config config;
  Schedule schedule;
  Traffic traffic;
  explicit Run(const Config& c)
      : config(c), schedule(make_schedule(c)),
        traffic(compute_traffic(schedule, make_layout(c), c.dtype, c.ranks)) {}
  // Before the first round (0), each round, and the end (-1).
  std::string caption(int round, Language language = Language::en) const {
    const RoundCaption caption = round < 0
                                     ? round_caption(language, config, schedule, traffic, schedule.round_count(), true)
                                     : round_caption(language, config, schedule, traffic, round, false);
    return caption.title + "\n" + caption.body;
  }
};

// "ring" as a word of its own ("during" and "string" do not count), or the Chinese 环.
bool names_a_ring(const std::string& text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (std::size_t at = lower.find("ring"); at != std::string::npos; at = lower.find("ring", at + 1))
    if (at == 0 || !std::isalpha(static_cast<unsigned char>(lower[at - 1]))) return true;
  return text.find("环") != std::string::npos;
}

bool names_neighbours(const std::string& text) {
  return text.find("neighbour") != std::string::npos || text.find("相邻") != std::string::npos ||
         text.find("邻居") != std::string::npos;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("no caption of an algorithm other than the rings speaks of a ring or of neighbours, in English or Chinese") {
  for (Language language : {Language::en, Language::zh}) {
    for (Algorithm algorithm : kAllAlgorithms)
      for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce}) {
        if (!algorithm_supports(algorithm, op)) continue;
        for (int ranks : {1, 2, 3, 4, 5, 6, 8, 11})
          for (ReduceOp reduce : {ReduceOp::sum, ReduceOp::max}) {
            const Run run(config_of(algorithm, op, ranks, reduce));
            bool some_ring_words = false;
            for (int round = -1; round <= run.schedule.round_count(); ++round) {
              const std::string text = run.caption(round, language);
              CAPTURE(language_name(language));
              CAPTURE(algorithm_name(algorithm));
              CAPTURE(op_name(op));
              CAPTURE(ranks);
              CAPTURE(round);
              CAPTURE(text);
              CHECK(text.find('\n') + 1 < text.size());  // a title and a body
              CHECK(!contains(text, "%"));                 // every conversion filled
              if (!algorithm_unit(algorithm).ring_neighbours) {
                CHECK_FALSE(names_a_ring(text));
                CHECK_FALSE(names_neighbours(text));
              }
              some_ring_words |= names_a_ring(text) || names_neighbours(text);
            }
            // The rings keep their own words.
            CAPTURE(language_name(language));
            CAPTURE(op_name(op));
            CAPTURE(ranks);
            if (algorithm_unit(algorithm).ring_neighbours && ranks > 2) CHECK(some_ring_words);
          }
      }
  }
}

TEST_CASE("rhd's captions name the partners and the slots each sends, round by round") {
  const Run four(config_of(Algorithm::rhd, Op::allreduce, 4));
  REQUIRE(four.schedule.round_count() == 4);
  CHECK(contains(four.caption(0), "Halving in 2 rounds (partners swap and reduce half their slots), then doubling in 2"));
  CHECK(contains(four.caption(1), "Round 1 of 4  -  reduce-scatter"));
  CHECK(contains(four.caption(1), "GPUs 2 apart pair up (GPU 0 with GPU 2, ...)"));
  CHECK(contains(four.caption(1), "each sends 2 slot(s) to its partner, which folds them in (reduce)"));
  CHECK(contains(four.caption(2), "GPUs 1 apart pair up (GPU 0 with GPU 1, ...)"));
  CHECK(contains(four.caption(2), "each GPU owns one fully reduced slot"));
  CHECK(contains(four.caption(3), "GPUs 1 apart pair up"));
  CHECK(contains(four.caption(3), "which stores them (copy)"));
  CHECK(contains(four.caption(4), "GPUs 2 apart pair up (GPU 0 with GPU 2, ...)"));
  CHECK(contains(four.caption(4), "each sends 2 slot(s)"));
  CHECK(contains(four.caption(4), "every GPU holds the whole result"));

  // Six GPUs: 0 and 2 fold into 1 and 3 first, and get the whole result back last.
  const Run six(config_of(Algorithm::rhd, Op::allreduce, 6));
  const int rounds = six.schedule.round_count();
  CHECK(contains(six.caption(0), "With 6 GPUs, 2 fold into a partner first and get the result last."));
  CHECK(contains(six.caption(1), "GPU 0 and GPU 2 fold their whole buffer into the GPU one above (reduce)"));
  CHECK(contains(six.caption(1), "the other 4 GPUs"));
  CHECK(contains(six.caption(rounds), "GPU 0 and GPU 2 each receive 6 slot(s)"));
  // Partners are not a fixed distance apart once ranks are renumbered.
  CHECK(contains(six.caption(2), "Partner GPUs pair up (GPU 1 with GPU 4, ...)"));

  CHECK(contains(four.caption(1, Language::zh), "编号相差 2 的 GPU 两两配对（GPU 0 与 GPU 2，……）"));
  CHECK(contains(four.caption(1, Language::zh), "每张发 2 个分片给搭档"));
}

TEST_CASE("the tree's captions name the depth and a child and its parent, naive's and direct's name GPU 0 and the owners") {
  const Run tree(config_of(Algorithm::tree, Op::allreduce, 7));
  REQUIRE(tree.schedule.round_count() == 4);
  CHECK(contains(tree.caption(1), "Round 1 of 4  -  reduce"));
  CHECK(contains(tree.caption(1), "The GPUs at depth 2 of the tree send their whole buffer up to their parent (GPU 3 to GPU 1, ...)"));
  CHECK(contains(tree.caption(2), "(GPU 1 to GPU 0, ...)"));
  CHECK(contains(tree.caption(2), "GPU 0 now holds the full reduction of every slot."));
  CHECK(contains(tree.caption(3), "Round 3 of 4  -  broadcast"));
  CHECK(contains(tree.caption(3), "The GPUs at depth 0 copy the whole result down to their children (GPU 0 to GPU 1, ...)"));

  const Run pipelined(config_of(Algorithm::tree_pipelined, Op::allreduce, 3));
  CHECK(contains(pipelined.caption(1), "2 GPU(s) each send one slot up to their parent (GPU 1 sends slot 0 to GPU 0, ...)"));

  const Run naive(config_of(Algorithm::naive, Op::allreduce, 4));
  CHECK(contains(naive.caption(1), "Every GPU but GPU 0 sends its whole buffer (4 slots) to GPU 0"));
  CHECK(contains(naive.caption(1), "its link carries 3 buffers"));
  CHECK(contains(naive.caption(2), "Round 2 of 2  -  broadcast"));
  CHECK(contains(naive.caption(2), "GPU 0 sends the finished buffer to each of the other 3 GPUs (copy)"));
  const Run naive_gather(config_of(Algorithm::naive, Op::allgather, 4));
  CHECK(contains(naive_gather.caption(1), "Round 1 of 2  -  gather"));
  CHECK(contains(naive_gather.caption(2), "9 blocks in all"));

  const Run direct(config_of(Algorithm::direct, Op::reducescatter, 4));
  CHECK(contains(direct.caption(1), "(slot j to GPU j), 3 messages at once; the owner folds the 3 arrivals"));
  CHECK(contains(direct.caption(-1), "The busiest GPU sent 36 B."));
}

TEST_CASE("each algorithm's traffic formula gives what its busiest GPU sends") {
  for (Algorithm algorithm : kAllAlgorithms)
    for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce}) {
      if (!algorithm_supports(algorithm, op)) continue;
      for (int ranks = 2; ranks <= 9; ++ranks) {
        const Run run(config_of(algorithm, op, ranks));
        const TrafficFormula formula =
            traffic_formula(Language::en, algorithm, op, ranks, formula_buffer_bytes(run.config));
        std::int64_t busiest = 0;
        for (int r = 0; r < ranks; ++r) busiest = std::max(busiest, run.traffic.total_sent(r));
        CAPTURE(algorithm_name(algorithm));
        CAPTURE(op_name(op));
        CAPTURE(ranks);
        const bool power_of_two = (ranks & (ranks - 1)) == 0;
        if (algorithm == Algorithm::rhd && !power_of_two) {
          // The formula is the power-of-two case; the GPUs that take in a partner send more.
          CHECK(static_cast<double>(busiest) > formula.busiest_bytes);
          CHECK(contains(formula.note, "power of two"));
        } else {
          CHECK(static_cast<double>(busiest) == doctest::Approx(formula.busiest_bytes));
          CHECK(formula.note.empty());
        }
        // Only the rings' formulas are worded as a ring's.
        CHECK(names_a_ring(formula.formula) == algorithm_unit(algorithm).ring_neighbours);
      }
    }
  CHECK(traffic_formula(Language::en, Algorithm::tree, Op::allreduce, 7, 64).values == "busiest, GPU 1: 3 x 64 B = 192 B");
  CHECK(traffic_formula(Language::en, Algorithm::naive, Op::allreduce, 4, 64).formula ==
        "naive AllReduce: GPU 0 sends (N-1) x M, the others M");
}

TEST_CASE("the help's guide speaks of the ring's arrows only where the ring runs") {
  for (Language language : {Language::en, Language::zh}) {
    CAPTURE(language_name(language));
    const std::string other = format(ui_strings_for(language).guide_text_other, "tree");
    CHECK(contains(other, "tree"));
    CHECK_FALSE(names_a_ring(other));
    CHECK_FALSE(names_neighbours(other));
  }
}

// Columns as the caption draws them: a Chinese character is about two Latin ones wide.
std::size_t columns(const std::string& text) {
  std::size_t count = 0;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const auto byte = static_cast<unsigned char>(text[at]);
    if ((byte & 0xC0) == 0x80) continue;  // a continuation byte
    count += byte >= 0xE0 ? 2 : 1;
  }
  return count;
}

TEST_CASE("every caption of an algorithm other than the ring fits the caption panel's two lines at 1600 pixels") {
  // About 125 columns a line at 1600 x 900; a sum adds no sentence on the reduction.
  constexpr std::size_t kTwoLines = 240;
  for (Language language : {Language::en, Language::zh}) {
    for (Algorithm algorithm : kAllAlgorithms)
      for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce}) {
        if (algorithm == Algorithm::ring || !algorithm_supports(algorithm, op)) continue;
        for (int ranks : {2, 4, 6, 7, 8, 16}) {
          const Run run(config_of(algorithm, op, ranks));
          for (int round = -1; round <= run.schedule.round_count(); ++round) {
            const std::string text = run.caption(round, language);
            CAPTURE(text);
            CHECK(columns(text.substr(text.find('\n') + 1)) <= kTwoLines);
          }
        }
      }
  }
}

TEST_CASE("the timeline's phases are reduce and broadcast for the algorithms that reduce into GPU 0") {
  for (Algorithm algorithm : {Algorithm::naive, Algorithm::tree, Algorithm::tree_pipelined})
    CHECK(reduces_into_one_gpu(algorithm));
  for (Algorithm algorithm : {Algorithm::ring, Algorithm::direct, Algorithm::rhd}) CHECK_FALSE(reduces_into_one_gpu(algorithm));
  const UiStrings& t = ui_strings_for(Language::en);
  CHECK(format(t.timeline_hint, t.phase_reduce, t.phase_broadcast) ==
        "Drag to scrub; markers are rounds (orange: reduce, blue: broadcast).");
}

TEST_CASE("a wave of a pipelined schedule is told as the earliest of the source article's rounds in it") {
  Config config = config_of(Algorithm::rhd, Op::allreduce, 4);
  config.slices = 2;
  config.channels = 2;
  const Run run(config);
  REQUIRE(run.schedule.round_count() == 5);  // 4 rounds + 2 slices - 1
  CHECK(contains(run.caption(1), "Wave 1 of 5"));
  CHECK(contains(run.caption(1), "GPUs 2 apart pair up (GPU 0 with GPU 2, ...)"));
  // Slices are pieces of a slot: they count once.
  CHECK(contains(run.caption(1), "each sends 2 slot(s)"));
  CHECK(contains(run.caption(2), "Slices of rounds 1 to 2 travel at once; round 1: GPUs 2 apart pair up"));
  CHECK(contains(run.caption(0), "Halving in 2 rounds"));
  for (Language language : {Language::en, Language::zh}) {
    for (int round = -1; round <= run.schedule.round_count(); ++round) {
      CAPTURE(round);
      CHECK_FALSE(names_a_ring(run.caption(round, language)));
    }
  }
}

TEST_CASE("a ring broadcast's captions name the root, the chain and its phase, and its formula what GPU 0 sends") {
  const Run broadcast(ConfigBuilder().op(Op::broadcast).ranks(4).count(8));
  CHECK(broadcast.caption(0).rfind("Broadcast: before the first round\nGPU 0, the root, holds", 0) == 0);
  CHECK(broadcast.caption(2).rfind("Round 2 of 6  -  broadcast\nThe root sends its next slot", 0) == 0);
  CHECK(broadcast.caption(6).find("Last round: the last slot reaches the end of the chain") != std::string::npos);
  CHECK(broadcast.caption(-1).find("Every GPU holds the root's buffer.") != std::string::npos);
  // No reduction is explained: a broadcast combines nothing.
  for (int round = 0; round <= 6; ++round) CHECK(broadcast.caption(round).find("reduc") == std::string::npos);
  const Run with_bytes(ConfigBuilder().op(Op::broadcast).ranks(4).count(16));
  const TrafficFormula formula = traffic_formula(Language::en, Algorithm::ring, Op::broadcast, 4, 64);
  CHECK(formula.formula == "Ring Broadcast sends, per GPU but the last in the chain:  M");
  CHECK(formula.values == "= 64 B (GPU 3, the last in the chain, sends nothing)");
  CHECK(formula.busiest_bytes == static_cast<double>(with_bytes.traffic.total_sent(0)));
  CHECK(broadcast.caption(2, Language::zh).find("广播") != std::string::npos);
}

TEST_CASE("a broadcast from root 3 of 5 names GPU 3, its label D0 and the chain 3 → 4 → 0 → 1 → 2, in both languages") {
  const Run broadcast(ConfigBuilder().op(Op::broadcast).ranks(5).root(3).count(10));
  CHECK(contains(broadcast.caption(0), "GPU 3, the root, holds the data cut into N slots (D0 is its slot 0)"));
  CHECK(contains(broadcast.caption(0), "the chain 3 → 4 → 0 → 1 → 2, one hop"));
  CHECK(contains(broadcast.caption(0, Language::zh), "根 GPU 3 持有数据，分成 N 个分片（D0 是它的分片 0）"));
  CHECK(contains(broadcast.caption(0, Language::zh), "分片沿链 3 → 4 → 0 → 1 → 2 每轮前进一跳"));
  const TrafficFormula formula = traffic_formula(Language::en, Algorithm::ring, Op::broadcast, 5, 40, 3);
  CHECK(formula.values == "= 40 B (GPU 2, the last in the chain, sends nothing)");
  CHECK(formula.busiest_bytes == static_cast<double>(broadcast.traffic.total_sent(3)));
  CHECK(broadcast.traffic.total_sent(2) == 0);
  // Past six GPUs the chain names its ends.
  const Run nine(ConfigBuilder().op(Op::broadcast).ranks(9).root(7).count(9));
  CHECK(contains(nine.caption(0), "the chain 7 → 8 → … → 6, one hop"));
}

TEST_CASE("an AllToAll's captions name each round's pairs, who waits, and what every GPU holds at the end") {
  const Run four(ConfigBuilder().op(Op::alltoall).algorithm(Algorithm::direct).ranks(4).count(8));
  CHECK(four.caption(0).rfind("AllToAll: before the first round\nEvery GPU holds N blocks, block j meant for GPU j.", 0) == 0);
  CHECK(four.caption(1).rfind("Round 1 of 3  -  all-to-all\nThe GPUs pair up: 0 & 3, 1 & 2. Each pair swaps the blocks "
                              "meant for each other (copy): GPU 0's block for GPU 3 lands in GPU 3's slot 0.",
                              0) == 0);
  CHECK(contains(four.caption(3), "After this round every GPU holds, in slot i, the block GPU i meant for it."));
  CHECK(contains(four.caption(-1), "The busiest GPU sent 24 B."));
  const Run five(ConfigBuilder().op(Op::alltoall).algorithm(Algorithm::direct).ranks(5).count(10));
  CHECK(contains(five.caption(1), "The GPUs pair up: 1 & 4, 2 & 3."));
  CHECK(contains(five.caption(1), "GPU 0 waits this round."));
  const TrafficFormula formula = traffic_formula(Language::en, Algorithm::direct, Op::alltoall, 4, 32);
  CHECK(formula.busiest_bytes == static_cast<double>(four.traffic.total_sent(0)));
  for (Language language : {Language::en, Language::zh}) {
    for (int ranks : {1, 2, 3, 4, 5, 8})
      for (int round = -1; round <= (ranks % 2 == 0 ? ranks - 1 : ranks); ++round) {
        const Run run(ConfigBuilder().op(Op::alltoall).algorithm(Algorithm::direct).ranks(ranks).count(2 * ranks));
        if (round > run.schedule.round_count()) continue;
        const std::string text = run.caption(round, language);
        CAPTURE(text);
        CHECK(!contains(text, "%"));
        CHECK(!contains(text, "ring"));
        CHECK(!contains(text, "reduc"));
        CHECK(!contains(text, "环"));
      }
  }
  CHECK(contains(four.caption(1, Language::zh), "GPU 两两配对：0 & 3, 1 & 2。"));
}

TEST_CASE("an uneven AllToAll's captions say where a block lands, its size, and that each GPU ends with its column") {
  // Row s: what GPU s sends GPUs 0 .. 3. In round 1 (0 & 3, 1 & 2) GPU 0 sends GPU 3 one element.
  const Run run(ConfigBuilder().op(Op::alltoall).algorithm(Algorithm::direct).ranks(4).count(8).splits(
      {2, 3, 0, 1, 1, 0, 4, 2, 0, 2, 1, 1, 3, 0, 0, 2}));
  CHECK(contains(run.caption(0), "every GPU's buffer has a slot for each (sender, receiver) pair, drawn as N rows of N"));
  CHECK(contains(run.caption(1), "GPU 0's block for GPU 3, 1 elements, lands in row 0 of GPU 3."));
  // Round 2 pairs 0 & 2, whose block is empty: the example is the first that carries elements.
  CHECK(contains(run.caption(2), "GPU 1's block for GPU 3, 2 elements, lands in row 1 of GPU 3."));
  CHECK(contains(run.caption(3), "After this round every GPU holds its column: in row i, the block GPU i meant for it."));
  CHECK(contains(run.caption(-1), "Every GPU holds its column"));
  CHECK(contains(run.caption(1, Language::zh), "GPU 0 发给 GPU 3 的块（1 个元素）作为第 0 行落入 GPU 3。"));
  for (Language language : {Language::en, Language::zh})
    for (int round = -1; round <= run.schedule.round_count(); ++round) {
      const std::string text = run.caption(round, language);
      CAPTURE(text);
      CHECK(!contains(text, "%"));
      CHECK(!contains(text, "slot i"));  // the even exchange's words
    }
}
