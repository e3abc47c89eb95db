// Labels that never lie (docs/architecture.md, "Collective semantics", Labels): every form a
// label can take on any surface, read back by a parser of its own, names exactly the ranks
// the cell holds.
#include <doctest/doctest.h>

#include <initializer_list>
#include <ostream>  // doctest prints the RankSets (bitsets) it compares
#include <string>
#include <vector>

#include "core/engine/contributor_label.h"
#include "tests/core/rank_sets.h"
#include "core/engine/provenance.h"
#include "core/model/layout.h"
#include "core/schedule/pipeline.h"
#include "core/algorithms/registry.h"
#include "core/schedule/schedule.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

Config config_of(Op op, int gpus, ReduceOp reduce = ReduceOp::sum, Order order = Order::seed) {
  return ConfigBuilder().op(op).ranks(gpus).count(gpus).reduce(reduce).order(order);
}

// What a label says, read back: the ranks it names, the function written around its items
// ("max", "prod" ...; empty for an infix form) and the separator between them.
struct ReadLabel {
  RankSet ranks;
  std::string function;
  std::string separator;
  bool ok = true;
  std::string why;  // when not ok
};

ReadLabel fail(std::string why) {
  ReadLabel read;
  read.ok = false;
  read.why = std::move(why);
  return read;
}

int lowest_rank(const RankSet& set) {
  for (int rank = 0; rank < kMaxRanks; ++rank)
    if (set.test(static_cast<std::size_t>(rank))) return rank;
  return -1;
}

bool all_digits(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

// One term, "c2" or "r26_2", back to its rank; -1 when it is not a term of `slot`.
int read_term(const std::string& term, int slot) {
  const std::string slot_text = std::to_string(slot);
  const std::size_t underscore = term.find('_');
  if (underscore != std::string::npos) {
    if (term[0] != 'r' || term.substr(underscore + 1) != slot_text) return -1;
    const std::string rank = term.substr(1, underscore - 1);
    if (!all_digits(rank) || std::stoi(rank) < 26) return -1;
    return std::stoi(rank);
  }
  if (term.size() < 2 || term[0] < 'a' || term[0] > 'z' || term.substr(1) != slot_text) return -1;
  return term[0] - 'a';
}

// Reads a label of slot `slot` on `ranks` GPUs: terms and ring runs "x..y" (from x forward
// around the ring to y), joined by one separator, optionally inside "name(...)". A rank named
// twice is an error: a label lists each contributor once.
ReadLabel read_label(const std::string& label, int ranks, int slot) {
  ReadLabel read;
  if (label.empty()) return read;
  std::string inside = label;
  const std::size_t open = label.find('(');
  if (open != std::string::npos) {
    if (label.back() != ')') return fail("unclosed function");
    read.function = label.substr(0, open);
    inside = label.substr(open + 1, label.size() - open - 2);
  }
  for (const char* separator : {"+", "\u00d7", ","})
    if (inside.find(separator) != std::string::npos) {
      if (!read.separator.empty()) return fail("two kinds of separator");
      read.separator = separator;
    }
  std::vector<std::string> items;
  if (read.separator.empty()) {
    items.push_back(inside);
  } else {
    std::size_t from = 0;
    for (std::size_t at; (at = inside.find(read.separator, from)) != std::string::npos; from = at + read.separator.size())
      items.push_back(inside.substr(from, at - from));
    items.push_back(inside.substr(from));
  }
  for (const std::string& item : items) {
    const std::size_t dots = item.find("..");
    const int first = read_term(item.substr(0, dots), slot);
    const int last = dots == std::string::npos ? first : read_term(item.substr(dots + 2), slot);
    if (first < 0 || last < 0 || first >= ranks || last >= ranks) return fail("not a term: " + item);
    for (int rank = first;; rank = (rank + 1) % ranks) {
      if (read.ranks.test(static_cast<std::size_t>(rank))) return fail("named twice: " + term_label(rank, slot));
      read.ranks.set(static_cast<std::size_t>(rank));
      if (rank == last) break;
    }
  }
  return read;
}

// The function a form of this reduction may name, and the infix separator of its explicit
// terms, for `terms` contributors out of `ranks`.
struct ExpectedNotation {
  std::string function;   // "" for sums, "max", "min", "mean", "prod" (run form only)
  std::string separator;  // of the explicit terms: "+", "×" or ","
};

ExpectedNotation expected_notation(ReduceOp reduce, int terms, int ranks) {
  if (terms < 2 || reduce == ReduceOp::sum || (reduce == ReduceOp::avg && terms < ranks)) return {"", "+"};
  switch (reduce) {
    case ReduceOp::prod: return {"prod", "\u00d7"};
    case ReduceOp::max: return {"max", ","};
    case ReduceOp::min: return {"min", ","};
    case ReduceOp::avg: return {"mean", ","};
    case ReduceOp::sum: break;
  }
  return {"", "+"};
}

// Characters as they take room on screen: "×" is two bytes of UTF-8 but one character.
std::size_t characters(const std::string& text) {
  std::size_t count = 0;
  for (unsigned char c : text) count += (c & 0xC0) != 0x80 ? 1 : 0;
  return count;
}

// Why some form the trace tables or the GUI may show for one cell does not read back as its
// contributors, or does not name the reduction that runs; empty when every form is right.
// One CHECK per cell rather than per property: the sweeps below look at millions of labels.
std::string problem_with_forms(const Config& config, const RankSet& held, int slot) {
  const LabelForms forms = label_forms(config, held, slot);
  const std::vector<std::string> shown = {forms.terms, forms.runs, forms.operands, reduction_label(config, held, slot)};
  const std::string where = " (slot " + std::to_string(slot) + ", " + std::to_string(held.count()) + " terms)";
  if (config.op == Op::allgather) {
    const std::string block = held.none() ? std::string() : rank_letter(lowest_rank(held), true);
    if (held.count() > 1) return "an AllGather slot holds several blocks" + where;
    for (const std::string& label : shown)
      if (label != block) return "\"" + label + "\" is not the block " + block + where;
    return {};
  }
  for (const std::string& label : shown) {
    const ReadLabel read = read_label(label, config.ranks, slot);
    if (!read.ok) return "\"" + label + "\" does not parse: " + read.why + where;
    if (read.ranks != held) return "\"" + label + "\" names other ranks than it holds" + where;
  }
  const int terms = static_cast<int>(held.count());
  const ExpectedNotation notation = expected_notation(config.reduce, terms, config.ranks);
  // The explicit form lists every term with the reduction's own separator.
  const ReadLabel terms_read = read_label(forms.terms, config.ranks, slot);
  if (forms.terms.find("..") != std::string::npos) return "\"" + forms.terms + "\" abbreviates" + where;
  if (terms >= 2 && (terms_read.separator != notation.separator ||
                     terms_read.function != (notation.function == "prod" ? "" : notation.function)))
    return "\"" + forms.terms + "\" does not name " + std::string(reduce_op_name(config.reduce)) + where;
  // The run form is never longer than the terms, and names its reduction unless it is a sum.
  if (characters(forms.runs) > characters(forms.terms))
    return "\"" + forms.runs + "\" is longer than \"" + forms.terms + "\"" + where;
  const bool abbreviated = forms.runs.find("..") != std::string::npos;
  if (abbreviated && read_label(forms.runs, config.ranks, slot).function != notation.function)
    return "\"" + forms.runs + "\" does not name " + std::string(reduce_op_name(config.reduce)) + where;
  if (!read_label(forms.operands, config.ranks, slot).function.empty())
    return "\"" + forms.operands + "\" keeps a function name" + where;
  // Either every run of three or more is abbreviated, or the terms were as short.
  int long_runs = 0;
  for (const RingRun& run : ring_runs(held, config.ranks)) long_runs += run.length >= 3 ? 1 : 0;
  int dots = 0;
  for (std::size_t at = 0; (at = forms.runs.find("..", at)) != std::string::npos; at += 2) ++dots;
  if (dots != long_runs && forms.runs != forms.terms)
    return "\"" + forms.runs + "\" abbreviates " + std::to_string(dots) + " of " + std::to_string(long_runs) +
           " long runs" + where;
  return {};
}

void check_every_form(const Config& config, const RankSet& held, int slot) {
  const std::string problem = problem_with_forms(config, held, slot);
  CHECK_MESSAGE(problem.empty(), problem);
}

TEST_CASE("every label of every cell of every ring collective up to 16 GPUs names exactly its contributors") {
  for (int gpus = 1; gpus <= 16; ++gpus)
    for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce})
      for (Order order : {Order::seed, Order::nccl})
        for (ReduceOp reduce : {ReduceOp::sum, ReduceOp::prod, ReduceOp::max, ReduceOp::avg}) {
          const Config config = config_of(op, gpus, reduce, order);
          const Schedule schedule = make_schedule(config);
          Provenance provenance = Provenance::initial(config);
          CAPTURE(gpus);
          CAPTURE(op_display_name(op));
          CAPTURE(order_name(order));
          CAPTURE(reduce_op_name(reduce));
          for (int round = 0; round <= schedule.round_count(); ++round) {
            if (round > 0) provenance.apply(schedule.rounds[static_cast<std::size_t>(round - 1)]);
            CAPTURE(round);
            for (int rank = 0; rank < gpus; ++rank)
              for (int slot = 0; slot < gpus; ++slot) {
                const RankSet held = provenance.at(rank, slot);
                // A ring's partial result is always one run of the ring.
                if (op != Op::allgather && held.any()) CHECK(ring_runs(held, gpus).size() == 1u);
                check_every_form(config, held, slot);
              }
          }
        }
}

// The bidirectional ring's label, cut at " | " into its halves (clockwise first).
std::vector<std::string> halves_of(const std::string& label) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t at; (at = label.find(kLaneSeparator, from)) != std::string::npos; from = at + kLaneSeparator.size())
    parts.push_back(label.substr(from, at - from));
  parts.push_back(label.substr(from));
  return parts;
}

// "" when every form of the cell's label names, half by half, exactly what that half holds.
std::string problem_with_halves(const Config& config, const std::vector<RankSet>& lanes, int slot) {
  const LabelForms forms = lane_label_forms(config, lanes, slot);
  bool alike = true;
  for (const RankSet& lane : lanes) alike = alike && lane == lanes.front();
  if (alike) {
    const LabelForms whole = label_forms(config, lanes.front(), slot);
    if (forms.terms != whole.terms || forms.runs != whole.runs) return "\"" + forms.terms + "\" is not the slot's label";
    return problem_with_forms(config, lanes.front(), slot);
  }
  for (const std::string* form : {&forms.terms, &forms.runs, &forms.operands}) {
    const std::vector<std::string> parts = halves_of(*form);
    if (parts.size() != lanes.size())
      return "\"" + *form + "\" has " + std::to_string(parts.size()) + " parts for " + std::to_string(lanes.size()) +
             " halves";
    for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
      const std::string where = " (half " + std::to_string(lane) + " of \"" + *form + "\")";
      if (lanes[lane].none()) {
        if (parts[lane] != kNothingYet) return "\"" + parts[lane] + "\" stands for a half that holds nothing" + where;
        continue;
      }
      const LabelForms own = label_forms(config, lanes[lane], slot);
      if (parts[lane] != own.terms && parts[lane] != own.runs && parts[lane] != own.operands)
        return "\"" + parts[lane] + "\" is none of the half's own forms" + where;
      if (const std::string problem = problem_with_forms(config, lanes[lane], slot); !problem.empty())
        return problem + where;
    }
  }
  return {};
}

// Up to 12 GPUs and two reductions (a sum names its terms, an average divides them at the end):
// the cells grow as N^3, and 16 GPUs with three reductions took the sanitizer run almost five
// minutes for the same code paths.
TEST_CASE("every label of every cell of every bidirectional ring collective up to 12 GPUs names each half's contributors") {
  int cells_by_halves = 0, half_arrived = 0, one_element_slots = 0;
  for (int gpus = 2; gpus <= 12; ++gpus)
    for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce})
      for (Order order : {Order::seed, Order::nccl})
        for (ReduceOp reduce : {ReduceOp::sum, ReduceOp::avg})
          // Two elements a slot give each half one; one element leaves the second half empty,
          // and an empty half never decides the label.
          for (std::int64_t per_slot : {2, 1}) {
            Config config = config_of(op, gpus, reduce, order);
            config.algorithm = Algorithm::bidirectional_ring;
            config.count = per_slot * gpus;
            const Schedule schedule = make_schedule(config);
            REQUIRE(schedule.lanes == 2);
            Provenance provenance = Provenance::initial(config);
            CAPTURE(gpus);
            CAPTURE(op_display_name(op));
            CAPTURE(order_name(order));
            CAPTURE(reduce_op_name(reduce));
            CAPTURE(per_slot);
            for (int round = 0; round <= schedule.round_count(); ++round) {
              if (round > 0) provenance.apply(schedule.rounds[static_cast<std::size_t>(round - 1)]);
              CAPTURE(round);
              for (int rank = 0; rank < gpus; ++rank)
                for (int slot = 0; slot < gpus; ++slot) {
                  const std::vector<RankSet> lanes = provenance.lanes_at(rank, slot);
                  // AllGather gives every GPU a block of `count` elements per slot.
                  const bool halves_hold_elements = per_slot == 2 || op == Op::allgather;
                  CHECK(lanes.size() == (halves_hold_elements ? 2u : 1u));
                  if (lanes.size() == 1) {
                    ++one_element_slots;
                    CHECK(lanes.front() == provenance.at_lane(rank, slot, 0));
                  }
                  if (lanes.size() == 2 && lanes[0] != lanes[1]) ++cells_by_halves;
                  if (lanes.size() == 2 && (lanes[0].none() != lanes[1].none())) ++half_arrived;
                  const std::string problem = problem_with_halves(config, lanes, slot);
                  CHECK_MESSAGE(problem.empty(), problem);
                }
            }
          }
  // Not vacuous: halves differ mid-collective, some with one half still empty, and a slot of
  // one element is named by its one half.
  CHECK(cells_by_halves > 1000);
  CHECK(half_arrived > 100);
  CHECK(one_element_slots > 100);
}

TEST_CASE("a bidirectional ring's half-reduced slot is labelled half by half") {
  Config config = config_of(Op::allreduce, 4);
  config.algorithm = Algorithm::bidirectional_ring;
  config.count = 8;
  const Schedule schedule = make_schedule(config);
  Provenance provenance = Provenance::initial(config);
  provenance.apply(schedule.rounds[0]);
  // Round 1: GPU 1's slot 0 got GPU 0's clockwise half (seed order: GPU r sends slot r first)
  // and GPU 2's counter-clockwise half (GPU 2 sends first the slot GPU 3 will own, slot 0).
  CHECK(lane_label_forms(config, provenance.lanes_at(1, 0), 0).terms == "a0+b0 | b0+c0");
  CHECK(lane_reduction_label(config, provenance.lanes_at(1, 0), 0) == "a0+b0 | b0+c0");
  // The whole slot holds only what both halves hold.
  CHECK(provenance.at(1, 0) == ranks_of({1}));
  Config gather = config_of(Op::allgather, 4);
  gather.algorithm = Algorithm::bidirectional_ring;
  gather.count = 2;
  Provenance blocks = Provenance::initial(gather);
  blocks.apply(make_schedule(gather).rounds[0]);
  CHECK(lane_label_forms(gather, blocks.lanes_at(1, 0), 0).terms == "A | -");
  CHECK(lane_label_forms(gather, blocks.lanes_at(1, 2), 2).terms == "- | C");
}

TEST_CASE("the other algorithms' partial results, which are not ring runs, read back too") {
  for (int gpus = 2; gpus <= 16; ++gpus)
    for (Algorithm algorithm : {Algorithm::naive, Algorithm::direct, Algorithm::rhd, Algorithm::tree,
                                Algorithm::tree_pipelined}) {
      Config config = config_of(Op::allreduce, gpus, ReduceOp::max);
      config.algorithm = algorithm;
      const Schedule schedule = make_schedule(config);
      Provenance provenance = Provenance::initial(config);
      for (const Round& round : schedule.rounds) {
        provenance.apply(round);
        for (int rank = 0; rank < gpus; ++rank)
          for (int slot = 0; slot < gpus; ++slot) check_every_form(config, provenance.at(rank, slot), slot);
      }
    }
  // Every subset of eight GPUs, wrapping runs and all.
  for (ReduceOp reduce : {ReduceOp::sum, ReduceOp::prod, ReduceOp::max, ReduceOp::min, ReduceOp::avg})
    for (unsigned bits = 0; bits < 256; ++bits) {
      RankSet held;
      for (int rank = 0; rank < 8; ++rank)
        if (bits & (1u << rank)) held.set(static_cast<std::size_t>(rank));
      check_every_form(config_of(Op::allreduce, 8, reduce), held, 5);
    }
}

TEST_CASE("a run wraps around the ring and is never written first..last across a gap") {
  const Config four = config_of(Op::allreduce, 4);
  // The user's report: a2+c2+d2 read "a2..d2", exactly like the complete slot beside it.
  CHECK(label_forms(four, ranks_of({0, 2, 3}), 2).terms == "a2+c2+d2");
  CHECK(label_forms(four, ranks_of({0, 2, 3}), 2).runs == "c2..a2");
  CHECK(label_forms(four, ranks_of({0, 1, 2, 3}), 2).runs == "a2..d2");
  const Config eight = config_of(Op::allreduce, 8);
  CHECK(label_forms(eight, ranks_of({0, 6, 7}), 6).runs == "g6..a6");
  CHECK(label_forms(eight, ranks_of({0, 6, 7}), 6).terms == "a6+g6+h6");
  CHECK(label_forms(eight, ranks_of({0, 2, 3, 4}), 0).runs == "a0+c0..e0");
  CHECK(label_forms(eight, ranks_of({0, 1, 3, 4, 5, 7}), 0).runs == "d0..f0+h0..b0");
  CHECK(label_forms(eight, ranks_of({0, 1}), 0).runs == "a0+b0");           // two terms stay terms
  CHECK(label_forms(eight, ranks_of({0, 2, 4, 6}), 0).runs == "a0+c0+e0+g0");  // nothing to shorten
  CHECK(ring_runs(ranks_of({0, 6, 7}), 8) == std::vector<RingRun>{{6, 3}});
  CHECK(ring_runs(ranks_of({0, 1, 2, 3}), 4) == std::vector<RingRun>{{0, 4}});
  // Past z the terms keep their underscore inside runs.
  Config thirty = config_of(Op::allreduce, 30);
  CHECK(label_forms(thirty, ranks_of({24, 25, 26, 27}), 1).runs == "y1..r27_1");
  CHECK(label_forms(thirty, ranks_of({28, 29, 0}), 1).runs == "r28_1..a1");
}

TEST_CASE("the tables list up to four terms and write ring runs beyond") {
  const Config eight = config_of(Op::allreduce, 8);
  CHECK(reduction_label(eight, ranks_of({0, 6, 7}), 6) == "a6+g6+h6");
  CHECK(reduction_label(eight, ranks_of({0, 1, 2, 3, 4, 5, 6, 7}), 0) == "a0..h0");
  CHECK(reduction_label(eight, ranks_of({0, 1, 3, 4, 5}), 2) == "a2+b2+d2..f2");
  CHECK(reduction_label(config_of(Op::allreduce, 8, ReduceOp::max), ranks_of({0, 1, 2, 3, 4, 5, 6, 7}), 0) ==
        "max(a0..h0)");
  CHECK(reduction_label(config_of(Op::allreduce, 8, ReduceOp::prod), ranks_of({0, 1, 2, 3, 4, 5, 6, 7}), 0) ==
        "prod(a0..h0)");
  CHECK(reduction_label(config_of(Op::allreduce, 8, ReduceOp::avg), ranks_of({0, 1, 2, 3, 4, 5, 6, 7}), 0) ==
        "mean(a0..h0)");
  // avg adds like a sum until it is complete.
  CHECK(reduction_label(config_of(Op::allreduce, 8, ReduceOp::avg), ranks_of({5, 6, 7, 0, 1}), 0) == "f0..b0");
  CHECK(label_forms(config_of(Op::allreduce, 8, ReduceOp::min), ranks_of({0, 1, 2, 5}), 0).runs == "min(a0..c0,f0)");
  CHECK(label_forms(config_of(Op::allreduce, 8, ReduceOp::min), ranks_of({0, 1, 2, 5}), 0).operands == "a0..c0,f0");
  CHECK(label_forms(config_of(Op::allreduce, 8, ReduceOp::prod), ranks_of({0, 3}), 0).runs == "a0\u00d7d0");
}

// count 8 on four GPUs with 2 channels x 4 slices: every slot has 2 elements, so only slice 0
// of each channel holds any; the six empty pieces trail behind.
Config sparse_pipeline() {
  Config config = config_of(Op::allreduce, 4);
  config.count = 8;
  config.channels = 2;
  config.slices = 4;
  return config;
}

TEST_CASE("a pipelined cell is labelled from the pieces that hold elements") {
  const Config config = sparse_pipeline();
  const Schedule schedule = make_schedule(config);
  const SlotLayout layout = make_layout(config);
  const PipelineShape shape{config.channels, config.slices};
  Provenance provenance = Provenance::initial(config);
  bool empty_piece_lagged = false;
  for (const Round& wave : schedule.rounds) {
    provenance.apply(wave);
    for (int rank = 0; rank < config.ranks; ++rank)
      for (int slot = 0; slot < config.ranks; ++slot) {
        RankSet with_elements;
        with_elements.set();
        RankSet every_piece = with_elements;
        for (int piece = 0; piece < shape.pieces_per_slot(); ++piece) {
          const bool has_elements = piece_span(layout[slot], shape, piece).count > 0;
          CHECK(provenance.piece_has_elements(slot, piece) == has_elements);
          every_piece &= provenance.at(rank, slot, piece);
          if (has_elements) with_elements &= provenance.at(rank, slot, piece);
        }
        CHECK(provenance.at(rank, slot) == with_elements);
        empty_piece_lagged = empty_piece_lagged || every_piece != with_elements;
        check_every_form(config, provenance.at(rank, slot), slot);
      }
  }
  // The case the user saw: an empty piece trailing behind would have made a complete cell
  // read "a0".
  CHECK(empty_piece_lagged);
  // After the last wave every slot of an AllReduce is complete.
  for (int rank = 0; rank < config.ranks; ++rank)
    for (int slot = 0; slot < config.ranks; ++slot) CHECK(provenance.at(rank, slot).count() == 4u);
}

TEST_CASE("a slot without elements follows all its pieces, as in lock-step") {
  Config config = config_of(Op::allreduce, 4);
  config.count = 2;  // slots 2 and 3 are empty
  config.slices = 2;
  const Schedule schedule = make_schedule(config);
  Provenance provenance = Provenance::initial(config);
  provenance.apply(schedule.rounds[0]);
  for (int rank = 0; rank < 4; ++rank) {
    CHECK_FALSE(provenance.piece_has_elements(3, 0));
    CHECK(provenance.at(rank, 3) == (provenance.at(rank, 3, 0) & provenance.at(rank, 3, 1)));
  }
}

}  // namespace
}  // namespace ringviz
