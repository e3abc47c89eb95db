// The α-β-γ model against costs worked out by hand, against the textbook formulas, and the
// sanity checks any reader of Thakur, Rabenseifner and Gropp would expect.
#include <doctest/doctest.h>

#include <cmath>

#include "core/algorithms/registry.h"
#include "core/training/cost_model.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;

namespace {

// Round numbers so the hand computations stay readable: α = 1 µs, 1 GB/s (β = 1 ns/B),
// γ = 0.5 ns/B.
LinkModel round_numbers() {
  LinkModel link;
  link.key = "test";
  link.label = "test link";
  link.alpha_seconds = 1e-6;
  link.bytes_per_second = 1e9;
  link.gamma_seconds_per_byte = 0.5e-9;
  return link;
}

CostEstimate estimate(Algorithm algorithm, Op op, int ranks, std::int64_t count,
                      const LinkModel& link = round_numbers()) {
  const Config config = ConfigBuilder().algorithm(algorithm).op(op).ranks(ranks).count(count);
  return estimate_cost(config, link);
}

double microseconds(const CostEstimate& estimate) { return estimate.seconds * 1e6; }

}  // namespace

TEST_CASE("ring AllReduce on 8 GPUs costs 14α + 14000 B·β + 3500 B·γ for 8000 bytes each") {
  // n = 2000 f32 = 8000 B; 2(N-1) = 14 messages of n/N = 1000 B; the reduce-scatter folds
  // (N-1)/N·n = 7000 B: 14 µs + 14 µs + 3.5 µs.
  const CostEstimate ring = estimate(Algorithm::ring, Op::allreduce, 8, 2000);
  CHECK(ring.rounds == 14);
  CHECK(ring.messages == 14);
  CHECK(ring.max_bytes_sent == 14000);
  CHECK(ring.busiest_link_bytes == 14000);
  CHECK(ring.max_bytes_reduced == 7000);
  CHECK(ring.terms.messages == doctest::Approx(14));
  CHECK(ring.terms.bytes == doctest::Approx(14000));
  CHECK(ring.terms.reduced_bytes == doctest::Approx(7000));
  CHECK(microseconds(ring) == doctest::Approx(31.5));
}

TEST_CASE("hand-computed AllReduce costs of the other algorithms on 8 GPUs") {
  SUBCASE("rhd: 6 rounds, same bytes as the ring: 6 + 14 + 3.5 µs") {
    const CostEstimate rhd = estimate(Algorithm::rhd, Op::allreduce, 8, 2000);
    CHECK(rhd.rounds == 6);
    CHECK(rhd.messages == 6);
    CHECK(rhd.max_bytes_sent == 14000);
    CHECK(microseconds(rhd) == doctest::Approx(23.5));
  }
  SUBCASE("direct: two rounds of 7 messages each way, the ring's bytes: 14 + 14 + 3.5 µs") {
    const CostEstimate direct = estimate(Algorithm::direct, Op::allreduce, 8, 2000);
    CHECK(direct.rounds == 2);
    CHECK(direct.messages == 14);
    CHECK(microseconds(direct) == doctest::Approx(31.5));
  }
  SUBCASE("naive: GPU 0 takes in and sends out 7 whole buffers: 14 + 112 + 28 µs") {
    const CostEstimate naive = estimate(Algorithm::naive, Op::allreduce, 8, 2000);
    CHECK(naive.rounds == 2);
    CHECK(naive.busiest_link_rank == 0);
    CHECK(naive.busiest_link_bytes == 7 * 8000);
    CHECK(naive.max_bytes_reduced == 7 * 8000);
    CHECK(microseconds(naive) == doctest::Approx(154));
  }
  SUBCASE("tree: 13 + 26 + 26 µs up, 18 + 18 + 9 µs down") {
    // Up: GPU 3 folds GPU 7's buffer (α + nβ + nγ = 13), GPUs 1 and 2 fold two buffers each
    // (26), GPU 0 folds two (26). Down: GPU 0 sends two (18), GPUs 1 and 2 two (18), GPU 3 one (9).
    const CostEstimate tree = estimate(Algorithm::tree, Op::allreduce, 8, 2000);
    CHECK(tree.rounds == 6);
    REQUIRE(tree.per_round.size() == 6);
    const double expected[] = {13, 26, 26, 18, 18, 9};
    for (int i = 0; i < 6; ++i) CHECK(tree.per_round[static_cast<std::size_t>(i)].seconds * 1e6 == doctest::Approx(expected[i]));
    CHECK(microseconds(tree) == doctest::Approx(110));
  }
}

TEST_CASE("rhd on 3 GPUs pays for the fold-in and hand-back steps") {
  // 3000 f32: slots of 4000 B. GPU 0 folds into GPU 1 (1 + 12 + 6), GPU 1 takes slots 0 and 1
  // from GPU 2 (1 + 8 + 4), sends them back (1 + 8), hands GPU 0 the whole result (1 + 12).
  const CostEstimate rhd = estimate(Algorithm::rhd, Op::allreduce, 3, 3000);
  CHECK(rhd.rounds == 4);
  CHECK(microseconds(rhd) == doctest::Approx(19 + 13 + 9 + 13));
}

TEST_CASE("estimates agree with the textbook formulas when N is a power of two and divides the count") {
  const LinkModel link = round_numbers();
  const double a = link.alpha_seconds, b = link.beta(), g = link.gamma_seconds_per_byte;
  for (int n : {2, 4, 8, 16}) {
    const std::int64_t count = 1024 * n;
    const double bytes = 4.0 * static_cast<double>(count);
    const double steps = n - 1, lg = std::log2(n), share = steps / n * bytes;
    CAPTURE(n);
    CHECK(estimate(Algorithm::ring, Op::allgather, n, count).seconds == doctest::Approx(steps * a + steps * bytes * b));
    CHECK(estimate(Algorithm::ring, Op::reducescatter, n, count).seconds == doctest::Approx(steps * a + share * (b + g)));
    CHECK(estimate(Algorithm::ring, Op::allreduce, n, count).seconds ==
          doctest::Approx(2 * steps * a + 2 * share * b + share * g));
    CHECK(estimate(Algorithm::rhd, Op::allgather, n, count).seconds == doctest::Approx(lg * a + steps * bytes * b));
    CHECK(estimate(Algorithm::rhd, Op::reducescatter, n, count).seconds == doctest::Approx(lg * a + share * (b + g)));
    CHECK(estimate(Algorithm::rhd, Op::allreduce, n, count).seconds ==
          doctest::Approx(2 * lg * a + 2 * share * b + share * g));
    CHECK(estimate(Algorithm::direct, Op::allgather, n, count).seconds == doctest::Approx(steps * a + steps * bytes * b));
    CHECK(estimate(Algorithm::direct, Op::reducescatter, n, count).seconds == doctest::Approx(steps * a + share * (b + g)));
    CHECK(estimate(Algorithm::naive, Op::allgather, n, count).seconds ==
          doctest::Approx(2 * steps * a + n * steps * bytes * b));
    CHECK(estimate(Algorithm::naive, Op::reducescatter, n, count).seconds ==
          doctest::Approx(2 * steps * a + steps * (n + 1.0) / n * bytes * b + steps * bytes * g));
    CHECK(estimate(Algorithm::naive, Op::allreduce, n, count).seconds ==
          doctest::Approx(2 * steps * a + 2 * steps * bytes * b + steps * bytes * g));
  }
  SUBCASE("trees when the tree is full (N = 2^k - 1)") {
    for (int n : {3, 7, 15}) {
      const std::int64_t count = 1024 * n;
      const double bytes = 4.0 * static_cast<double>(count);
      const double depth = std::log2(n + 1) - 1;
      CAPTURE(n);
      CHECK(estimate(Algorithm::tree, Op::allreduce, n, count).seconds ==
            doctest::Approx(4 * depth * (a + bytes * b) + 2 * depth * bytes * g));
      const double rounds = depth + n - 1, piece = bytes / n;
      CHECK(estimate(Algorithm::tree_pipelined, Op::allreduce, n, count).seconds ==
            doctest::Approx(4 * rounds * (a + piece * b) + 2 * rounds * piece * g));
    }
  }
}

TEST_CASE("for tiny messages on many GPUs, tree and rhd beat the ring") {
  for (const LinkModel& link : link_presets())
    for (int n : {32, 64, 128, 256}) {
      CAPTURE(link.key);
      CAPTURE(n);
      const double ring = estimate(Algorithm::ring, Op::allreduce, n, 256, link).seconds;  // 1 KiB
      CHECK(estimate(Algorithm::tree, Op::allreduce, n, 256, link).seconds < ring);
      CHECK(estimate(Algorithm::rhd, Op::allreduce, n, 256, link).seconds < ring);
    }
}

TEST_CASE("for large messages the ring beats the tree and naive") {
  for (int n : {4, 8, 16, 24}) {
    const double ring = estimate(Algorithm::ring, Op::allreduce, n, 1 << 26, link_presets()[0]).seconds;
    CHECK(ring < estimate(Algorithm::tree, Op::allreduce, n, 1 << 26, link_presets()[0]).seconds);
    CHECK(ring < estimate(Algorithm::tree_pipelined, Op::allreduce, n, 1 << 26, link_presets()[0]).seconds);
    CHECK(ring < estimate(Algorithm::naive, Op::allreduce, n, 1 << 26, link_presets()[0]).seconds);
  }
}

TEST_CASE("every transfer's timing fits inside its round") {
  const Config config = ConfigBuilder().algorithm(Algorithm::naive).ranks(5).count(100);
  const CostEstimate cost = estimate_cost(config, link_presets()[0]);
  const Schedule schedule = make_schedule(config);
  REQUIRE(cost.per_round.size() == schedule.rounds.size());
  for (std::size_t r = 0; r < schedule.rounds.size(); ++r) {
    const RoundCost& round = cost.per_round[r];
    REQUIRE(round.transfers.size() == schedule.rounds[r].transfers.size());
    for (const TransferTiming& t : round.transfers) {
      CHECK(t.send_start + t.send_seconds <= doctest::Approx(round.seconds));
      CHECK(t.receive_start + t.receive_seconds <= doctest::Approx(round.seconds));
      CHECK(t.send_seconds > 0);
    }
  }
  // GPU 0 receives every message of the first round: it is the critical side.
  CHECK(cost.per_round[0].critical_rank == 0);
  CHECK(cost.per_round[0].critical_receives);
}

TEST_CASE("the comparison sweeps 1 KiB to 1 GiB and finds where the fastest algorithm changes") {
  // 6 GPUs, not a power of two: rhd's extra steps cost bandwidth, so a ring wins late among the
  // schedules that reduce on the GPUs (the bidirectional one: its two directions are two
  // channels, one reducing while the other sends); at the largest sizes the NVSwitch's own
  // reduction (nvls, priced by NCCL's model) overtakes it, as NCCL picks NVLS there.
  const Config config = ConfigBuilder().op(Op::allreduce).ranks(6).count(1 << 20);
  const CostComparison comparison = compare_algorithms(config, find_link_preset("nvlink4"));
  REQUIRE(comparison.algorithms.size() == std::size(kAllAlgorithms));  // every one has AllReduce
  CHECK(comparison.algorithms.front() == Algorithm::ring);
  CHECK(comparison.sweep_bytes.front() == 1024);
  CHECK(comparison.sweep_bytes.back() == std::int64_t{1} << 30);
  CHECK(comparison.sweep_bytes.size() == 21);
  CHECK_FALSE(algorithm_unit(comparison.sweep_fastest.front()).ring_neighbours);
  CHECK(algorithm_unit(comparison.sweep_fastest.back()).reduces_in_switch);
  REQUIRE(comparison.crossovers.size() >= 2);
  CHECK(algorithm_unit(comparison.crossovers.back().faster).reduces_in_switch);
  CHECK(algorithm_unit(comparison.crossovers.back().slower).ring_neighbours);
  for (const Crossover& crossover : comparison.crossovers) {
    // Just below the crossover the slower one still wins; from it on the faster one does (up
    // to the part per million the comparison counts as a tie).
    const auto seconds = [&](Algorithm algorithm, std::int64_t bytes) {
      Config at = config;
      at.algorithm = algorithm;
      at.count = bytes / 4;
      return estimate_cost(at, comparison.topology, false).seconds;
    };
    CHECK(seconds(crossover.faster, crossover.bytes) <= seconds(crossover.slower, crossover.bytes) * (1 + 1e-6));
    CHECK(seconds(crossover.slower, crossover.bytes - 4) <= seconds(crossover.faster, crossover.bytes - 4) * (1 + 1e-6));
  }
}

TEST_CASE("the comparison of a ReduceScatter leaves out the trees") {
  const Config config = ConfigBuilder().op(Op::reducescatter).ranks(8);
  const CostComparison comparison = compare_algorithms(config, find_link_preset("pcie5"));
  // Every registered algorithm that has ReduceScatter, and only those.
  std::size_t having = 0;
  for (Algorithm algorithm : kAllAlgorithms) having += algorithm_supports(algorithm, Op::reducescatter) ? 1 : 0;
  CHECK(comparison.algorithms.size() == having);
  CHECK(having < std::size(kAllAlgorithms));
  for (Algorithm algorithm : comparison.algorithms)
    CHECK((algorithm != Algorithm::tree && algorithm != Algorithm::tree_pipelined));
}

TEST_CASE("link presets are found by key and an unknown key names the choices") {
  CHECK(find_link_preset("nvlink4").bytes_per_second == doctest::Approx(450e9));
  CHECK(find_link_preset("ib400").bytes_per_second == doctest::Approx(50e9));
  CHECK(link_presets().size() == 6);
  try {
    find_link_preset("carrier-pigeon");
    FAIL("expected an InputError");
  } catch (const InputError& error) {
    CHECK(std::string(error.what()) ==
          "--link: unknown value 'carrier-pigeon' (expected nvlink4, nvlink3, pcie4, pcie5, ib100, ib400)");
  }
}

TEST_CASE("the trees' formulas note a full tree in the reader's language, and the others carry no note") {
  const std::string en = cost_formula(Algorithm::tree, Op::allreduce);
  const std::string zh = cost_formula(Algorithm::tree, Op::allreduce, Language::zh);
  CHECK(en.ends_with(" (a full tree)"));
  CHECK(zh.ends_with("（满二叉树）"));
  CHECK(en.substr(0, en.size() - std::string(" (a full tree)").size()) ==
        zh.substr(0, zh.size() - std::string("（满二叉树）").size()));
  CHECK(cost_formula(Algorithm::ring, Op::allreduce, Language::zh) == cost_formula(Algorithm::ring, Op::allreduce));
  CHECK(cost_formula(Algorithm::tree, Op::reducescatter, Language::zh).empty());
}
