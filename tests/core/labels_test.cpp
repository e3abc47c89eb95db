// Provenance and its labels (docs/architecture.md, "Collective semantics"): who is folded into each
// slot, and how that is written on screen.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>

#include "core/engine/backend.h"
#include "core/engine/contributor_label.h"
#include "tests/core/rank_sets.h"
#include "core/engine/provenance.h"
#include "core/engine/session.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

RankSet first_ranks(int how_many) {
  RankSet set;
  for (int rank = 0; rank < how_many; ++rank) set.set(static_cast<std::size_t>(rank));
  return set;
}

Config reducing(ReduceOp reduce, int gpus = 4) {
  return ConfigBuilder().ranks(gpus).reduce(reduce);
}

TEST_CASE("Ranks are named a to z, then r26, r27 and so on") {
  CHECK(rank_letter(0) == "a");
  CHECK(rank_letter(7) == "h");
  CHECK(rank_letter(25) == "z");
  CHECK(rank_letter(26) == "r26");
  CHECK(rank_letter(255) == "r255");
  CHECK(rank_letter(0, true) == "A");
  CHECK(rank_letter(25, true) == "Z");
  CHECK(rank_letter(26, true) == "R26");
  CHECK(term_label(0, 0) == "a0");
  CHECK(term_label(2, 13) == "c13");
  CHECK(term_label(26, 3) == "r26_3");  // the underscore keeps rank and slot apart
}

Config summing(Op op, int gpus) {
  return ConfigBuilder().op(op).ranks(gpus);
}

TEST_CASE("A slot's label lists up to four terms in rank order and writes ring runs beyond") {
  const Config four = summing(Op::allreduce, 4);
  CHECK(reduction_label(four, RankSet{}, 0) == "");
  CHECK(reduction_label(four, ranks_of({0}), 0) == "a0");
  CHECK(reduction_label(four, ranks_of({0, 1, 2}), 0) == "a0+b0+c0");
  CHECK(reduction_label(summing(Op::reducescatter, 4), ranks_of({3, 0}), 3) == "a3+d3");
  CHECK(reduction_label(four, ranks_of({0, 1, 2, 3}), 1) == "a1+b1+c1+d1");
  CHECK(reduction_label(summing(Op::allreduce, 8), ranks_of({0, 1, 2, 3, 4}), 0) == "a0..e0");
  CHECK(reduction_label(summing(Op::allreduce, 8), first_ranks(8), 0) == "a0..h0");
  // A gap stays visible: b, d..e and g..h are three runs, not "b2..h2".
  CHECK(reduction_label(summing(Op::allreduce, 8), ranks_of({1, 3, 4, 6, 7}), 2) == "b2+d2+e2+g2+h2");
  CHECK(reduction_label(summing(Op::allreduce, 8), ranks_of({1, 3, 4, 5, 7}), 2) == "b2+d2..f2+h2");
  CHECK(reduction_label(summing(Op::allreduce, 30), first_ranks(30), 4) == "a4..r29_4");
  CHECK(reduction_label(summing(Op::allreduce, 30), ranks_of({25, 26}), 1) == "z1+r26_1");
}

TEST_CASE("AllGather blocks are labelled with the owner's upper-case letter") {
  CHECK(reduction_label(summing(Op::allgather, 4), ranks_of({0}), 0) == "A");
  CHECK(reduction_label(summing(Op::allgather, 4), ranks_of({3}), 3) == "D");
  CHECK(reduction_label(summing(Op::allgather, 30), ranks_of({27}), 27) == "R27");
  CHECK(reduction_label(summing(Op::allgather, 4), RankSet{}, 1) == "");
}

std::string row_labels(const Session& session, int rank) {
  std::string row;
  for (int slot = 0; slot < session.config().ranks; ++slot)
    row += "[" + reduction_label(session.config(), session.provenance().at(rank, slot), slot) + "]";
  return row;
}

Config small_config(Op op, Order order, int ranks) {
  return ConfigBuilder().op(op).order(order).ranks(ranks).count(ranks);
}

TEST_CASE("Three-GPU AllReduce in seed order builds up partial sums as the source article's table does") {
  Session session(small_config(Op::allreduce, Order::seed, 3), make_cpu_backend(1));
  CHECK(row_labels(session, 0) == "[a0][a1][a2]");
  CHECK(row_labels(session, 1) == "[b0][b1][b2]");
  session.step_forward();  // step 0: rank r sends slot r
  CHECK(row_labels(session, 0) == "[a0][a1][a2+c2]");
  CHECK(row_labels(session, 1) == "[a0+b0][b1][b2]");
  CHECK(row_labels(session, 2) == "[c0][b1+c1][c2]");
  session.step_forward();  // step 1: rank r sends slot r - 1, the partial sum it just got
  CHECK(row_labels(session, 0) == "[a0][a1+b1+c1][a2+c2]");
  CHECK(row_labels(session, 1) == "[a0+b0][b1][a2+b2+c2]");
  CHECK(row_labels(session, 2) == "[a0+b0+c0][b1+c1][c2]");
  session.seek(session.round_count());
  for (int rank = 0; rank < 3; ++rank)
    CHECK(row_labels(session, rank) == "[a0+b0+c0][a1+b1+c1][a2+b2+c2]");
}

TEST_CASE("After the reduce-scatter pass each rank holds the complete slot the semantics assign it") {
  for (Order order : {Order::seed, Order::nccl}) {
    Session session(small_config(Op::reducescatter, order, 8), make_cpu_backend(1));
    session.seek(session.round_count());
    for (int rank = 0; rank < 8; ++rank) {
      const int kept = order == Order::seed ? (rank + 1) % 8 : rank;
      INFO(order_name(order), " rank ", rank);
      CHECK(reduction_label(session.config(), session.provenance().at(rank, kept), kept) ==
            term_label(0, kept) + ".." + term_label(7, kept));
    }
  }
}

TEST_CASE("AllGather blocks spread one hop per round, in upper case") {
  Session session(small_config(Op::allgather, Order::seed, 4), make_cpu_backend(1));
  CHECK(row_labels(session, 0) == "[A][][][]");
  CHECK(row_labels(session, 2) == "[][][C][]");
  session.step_forward();
  CHECK(row_labels(session, 0) == "[A][][][D]");
  CHECK(row_labels(session, 2) == "[][B][C][]");
  session.seek(session.round_count());
  for (int rank = 0; rank < 4; ++rank) CHECK(row_labels(session, rank) == "[A][B][C][D]");
}

TEST_CASE("Thirty GPUs name ranks past z with r26 onwards, in labels and in blocks") {
  Session reduce(small_config(Op::allreduce, Order::nccl, 30), make_cpu_backend(1));
  reduce.seek(reduce.round_count());
  CHECK(reduction_label(reduce.config(), reduce.provenance().at(29, 27), 27) == "a27..r29_27");
  Session gather(small_config(Op::allgather, Order::seed, 30), make_cpu_backend(1));
  gather.seek(gather.round_count());
  CHECK(reduction_label(gather.config(), gather.provenance().at(0, 26), 26) == "R26");
}

TEST_CASE("labels name the reduction: a0+b0, a0×b0, max(a0,b0), min(a0,b0), and mean once avg is complete") {
  const RankSet two = ranks_of({0, 1});
  const RankSet all = ranks_of({0, 1, 2, 3});
  CHECK(reduction_label(reducing(ReduceOp::sum), two, 0) == "a0+b0");
  CHECK(reduction_label(reducing(ReduceOp::prod), two, 0) == "a0\u00d7b0");
  CHECK(reduction_label(reducing(ReduceOp::max), two, 0) == "max(a0,b0)");
  CHECK(reduction_label(reducing(ReduceOp::min), all, 2) == "min(a2,b2,c2,d2)");
  // avg adds until the completing transfer divides by N.
  CHECK(reduction_label(reducing(ReduceOp::avg), two, 0) == "a0+b0");
  CHECK(reduction_label(reducing(ReduceOp::avg), all, 1) == "mean(a1,b1,c1,d1)");
  // One term is just the term; AllGather blocks stay capital letters whatever --reduce says.
  CHECK(reduction_label(reducing(ReduceOp::max), ranks_of({2}), 3) == "c3");
  Config gather = reducing(ReduceOp::max);
  gather.op = Op::allgather;
  CHECK(reduction_label(gather, ranks_of({1}), 1) == "B");
  // More than four terms are written as ring runs, as sums are; the run form of a product
  // names it, since "a0..h0" alone would read as a sum.
  const RankSet eight = ranks_of({0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(reduction_label(reducing(ReduceOp::max, 8), eight, 0) == "max(a0..h0)");
  CHECK(reduction_label(reducing(ReduceOp::prod, 8), eight, 0) == "prod(a0..h0)");
  CHECK(reduction_label(reducing(ReduceOp::sum, 8), eight, 0) == "a0..h0");
}

}  // namespace
}  // namespace ringviz
