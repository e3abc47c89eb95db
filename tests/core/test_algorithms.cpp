// Every algorithm against a plain reference that never looks at a schedule: the reduction of
// every GPU's inputs, element by element, laid out as the collective semantics say each op's
// output is.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/engine/backend.h"
#include "core/model/config.h"
#include "core/input/initial_values.h"
#include "core/model/layout.h"
#include "core/engine/provenance.h"
#include "core/schedule/pipeline.h"
#include "core/algorithms/registry.h"
#include "core/engine/session.h"
#include "core/engine/traffic.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;

namespace {

// The inputs of docs/architecture.md ("Collective semantics"): GPU r's `count` elements, read back
// from the initial state.
std::vector<std::vector<ElementValue>> inputs_of(const Config& config) {
  const BufferState state = make_initial_state(config);
  const SlotLayout layout = make_layout(config);
  std::vector<std::vector<ElementValue>> inputs(static_cast<std::size_t>(config.ranks));
  for (int rank = 0; rank < config.ranks; ++rank) {
    const std::int64_t base = config.op == Op::allgather ? layout[rank].offset : 0;
    for (std::int64_t i = 0; i < config.count; ++i)
      inputs[static_cast<std::size_t>(rank)].push_back(read_element(state, rank, base + i));
  }
  return inputs;
}

// Element i reduced over all GPUs, straight from the definition. Integers wrap like two's
// complement hardware; avg is the (wrapped) sum divided by N, truncated.
ElementValue plain_reduce(const Config& config, const std::vector<std::vector<ElementValue>>& in,
                          std::int64_t i) {
  const auto at = [&](int rank) { return in[static_cast<std::size_t>(rank)][static_cast<std::size_t>(i)]; };
  if (!is_floating(config.dtype)) {
    const bool narrow = config.dtype == DType::i32;
    const auto wrap = [&](std::uint64_t v) -> std::int64_t {
      return narrow ? static_cast<std::int32_t>(static_cast<std::uint32_t>(v)) : static_cast<std::int64_t>(v);
    };
    std::int64_t value = at(0).integer;
    for (int rank = 1; rank < config.ranks; ++rank) {
      const std::int64_t x = at(rank).integer;
      switch (config.reduce) {
        case ReduceOp::sum:
        case ReduceOp::avg: value = wrap(static_cast<std::uint64_t>(value) + static_cast<std::uint64_t>(x)); break;
        case ReduceOp::prod: value = wrap(static_cast<std::uint64_t>(value) * static_cast<std::uint64_t>(x)); break;
        case ReduceOp::max: value = std::max(value, x); break;
        case ReduceOp::min: value = std::min(value, x); break;
      }
    }
    if (config.reduce == ReduceOp::avg) value /= config.ranks;
    return {true, static_cast<double>(value), value};
  }
  long double value = at(0).real;
  for (int rank = 1; rank < config.ranks; ++rank) {
    const long double x = at(rank).real;
    switch (config.reduce) {
      case ReduceOp::sum:
      case ReduceOp::avg: value += x; break;
      case ReduceOp::prod: value *= x; break;
      case ReduceOp::max: value = std::max(value, x); break;
      case ReduceOp::min: value = std::min(value, x); break;
    }
  }
  if (config.reduce == ReduceOp::avg) value /= config.ranks;
  return {false, static_cast<double>(value), 0};
}

// What each GPU must end with, per the collective semantics (docs/architecture.md). ReduceScatter:
// the reduced slot the schedule says it owns.
std::vector<std::vector<ElementValue>> plain_outputs(const Config& config, const std::vector<int>& owned) {
  const auto in = inputs_of(config);
  const SlotLayout layout = make_layout(config);
  std::vector<std::vector<ElementValue>> out(static_cast<std::size_t>(config.ranks));
  for (int rank = 0; rank < config.ranks; ++rank) {
    auto& row = out[static_cast<std::size_t>(rank)];
    if (config.op == Op::allgather) {
      for (int block = 0; block < config.ranks; ++block)
        for (const ElementValue& v : in[static_cast<std::size_t>(block)]) row.push_back(v);
    } else if (config.op == Op::allreduce) {
      for (std::int64_t i = 0; i < config.count; ++i) row.push_back(plain_reduce(config, in, i));
    } else {
      const Slot& slot = layout[owned[static_cast<std::size_t>(rank)]];
      for (std::int64_t i = slot.offset; i < slot.offset + slot.count; ++i)
        row.push_back(plain_reduce(config, in, i));
    }
  }
  return out;
}

std::vector<ByteBuffer> run_to_end(const Config& config, Schedule* schedule = nullptr) {
  Session session(config, make_cpu_backend(1));
  session.seek(session.round_count());
  if (schedule) *schedule = session.schedule();
  return session.outputs();
}

// Compares the session's outputs with the reference; floats that sum may differ in the last
// bits (another summation order), so they get a tolerance scaled by the inputs' magnitude.
void check_outputs(const Config& config) {
  Schedule schedule;
  const std::vector<ByteBuffer> outputs = run_to_end(config, &schedule);
  const auto expected = plain_outputs(config, schedule.owned_slot);
  const bool exact = !is_floating(config.dtype) || config.reduce == ReduceOp::max ||
                     config.reduce == ReduceOp::min || config.op == Op::allgather;
  for (int rank = 0; rank < config.ranks; ++rank) {
    const auto& want = expected[static_cast<std::size_t>(rank)];
    BufferState got{config.dtype, static_cast<std::int64_t>(want.size()), {outputs[static_cast<std::size_t>(rank)]}};
    REQUIRE(outputs[static_cast<std::size_t>(rank)].size() == want.size() * dtype_size(config.dtype));
    // One check per GPU (naming the first element that differs) keeps the suite fast.
    std::string first_difference;
    for (std::size_t i = 0; i < want.size() && first_difference.empty(); ++i) {
      const ElementValue value = read_element(got, 0, static_cast<std::int64_t>(i));
      const bool same = want[i].is_integer ? value.integer == want[i].integer
                        : exact            ? value.real == want[i].real
                                           : std::abs(value.real - want[i].real) <= 1e-5 * config.ranks;
      if (!same)
        first_difference = "element " + std::to_string(i) + ": got " + std::to_string(value.real) +
                           ", expected " + std::to_string(want[i].real);
    }
    INFO("GPU " << rank);
    CHECK(first_difference == "");
  }
}

bool is_full(const RankSet& set, int ranks) { return static_cast<int>(set.count()) == ranks; }

// Replays provenance round by round: nobody sends a piece of a slot that holds nothing yet, a
// transfer is marked `completes_slot` exactly when it is the last one into its (GPU, slot,
// piece) in its round and leaves that piece holding every GPU's contribution for the first time
// (a piece: the whole slot, or the part one of the algorithm's own channels carries, e.g. a
// half in the bidirectional ring); at the end every output holds what the collective semantics
// say.
void check_provenance(const Config& config) {
  const Schedule schedule = make_schedule(config);
  const PipelineShape shape = pipeline_shape_of(schedule);
  Provenance provenance = Provenance::initial(config);
  const int n = config.ranks;
  for (const Round& round : schedule.rounds) {
    Provenance after = provenance;
    after.apply(round);
    for (std::size_t i = 0; i < round.transfers.size(); ++i) {
      const Transfer& t = round.transfers[i];
      const int piece = shape.piece_of(t.step);
      INFO("transfer " << t.src << "->" << t.dst << " slot " << t.slot << " piece " << piece);
      CHECK(provenance.at(t.src, t.slot, piece).any());
      bool last_into_piece = true;
      for (std::size_t j = i + 1; j < round.transfers.size(); ++j)
        if (round.transfers[j].dst == t.dst && round.transfers[j].slot == t.slot &&
            shape.piece_of(round.transfers[j].step) == piece)
          last_into_piece = false;
      const bool completes = t.kind == TransferKind::reduce && last_into_piece &&
                             !is_full(provenance.at(t.dst, t.slot, piece), n) &&
                             is_full(after.at(t.dst, t.slot, piece), n);
      CHECK(t.completes_slot == completes);
    }
    provenance = after;
  }
  for (int rank = 0; rank < n; ++rank) {
    if (config.op == Op::allgather) {
      for (int slot = 0; slot < n; ++slot) {
        RankSet block;
        block.set(static_cast<std::size_t>(slot));
        CHECK(provenance.at(rank, slot) == block);
      }
    } else if (config.op == Op::allreduce) {
      for (int slot = 0; slot < n; ++slot) CHECK(is_full(provenance.at(rank, slot), n));
    } else {
      CHECK(is_full(provenance.at(rank, schedule.owned_slot[static_cast<std::size_t>(rank)]), n));
    }
  }
}

struct Numbers {
  DType dtype;
  ReduceOp reduce;
  const char* init;
};

// Integer sums are exact in any order; avg divides once (integers truncate, so dividing twice
// or never shows); min is exact for floats too; float averages get a tolerance.
constexpr Numbers kNumbers[] = {{DType::i32, ReduceOp::sum, "seed"},
                                {DType::i64, ReduceOp::avg, "random:3"},
                                {DType::f32, ReduceOp::min, "random:7"},
                                {DType::f64, ReduceOp::avg, "random:11"}};

}  // namespace

TEST_CASE("every algorithm matches the plain reference for every op, 1 to 17 GPUs and awkward counts") {
  for (Algorithm algorithm : kAllAlgorithms)
    for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce}) {
      if (!algorithm_supports(algorithm, op)) continue;
      for (int n = 1; n <= 17; ++n)
        for (std::int64_t count : {std::int64_t{0}, std::int64_t{1}, std::int64_t{n - 1},
                                   std::int64_t{n + 1}, std::int64_t{1000}})
          for (const Numbers& numbers : kNumbers) {
            const Config config = ConfigBuilder().algorithm(algorithm).op(op).ranks(n).count(count)
                .dtype(numbers.dtype).reduce(numbers.reduce).init(numbers.init);
            CAPTURE(algorithm_name(algorithm));
            CAPTURE(op_name(op));
            CAPTURE(n);
            CAPTURE(count);
            CAPTURE(dtype_name(numbers.dtype));
            CAPTURE(reduce_op_name(numbers.reduce));
            check_outputs(config);
          }
    }
}

TEST_CASE("every algorithm's provenance ends complete and marks each completing transfer once") {
  for (Algorithm algorithm : kAllAlgorithms)
    for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce}) {
      if (!algorithm_supports(algorithm, op)) continue;
      for (int n = 1; n <= 17; ++n) {
        const Config config = ConfigBuilder().algorithm(algorithm).op(op).ranks(n);
        CAPTURE(algorithm_name(algorithm));
        CAPTURE(op_name(op));
        CAPTURE(n);
        check_provenance(config);
      }
    }
}

TEST_CASE("the new algorithms give GPU r slot r in a ReduceScatter") {
  for (Algorithm algorithm : {Algorithm::naive, Algorithm::direct, Algorithm::rhd})
    for (int n : {1, 2, 3, 5, 8, 12}) {
      const Config config = ConfigBuilder().algorithm(algorithm).op(Op::reducescatter).ranks(n);
      const Schedule schedule = make_schedule(config);
      for (int rank = 0; rank < n; ++rank) CHECK(schedule.owned_slot[static_cast<std::size_t>(rank)] == rank);
    }
}

TEST_CASE("round counts follow each algorithm's shape") {
  const auto rounds = [](Algorithm algorithm, Op op, int n) {
    const Config config = ConfigBuilder().algorithm(algorithm).op(op).ranks(n);
    return make_schedule(config).round_count();
  };
  SUBCASE("naive and direct take two rounds for AllReduce, whatever N") {
    CHECK(rounds(Algorithm::naive, Op::allreduce, 9) == 2);
    CHECK(rounds(Algorithm::direct, Op::allreduce, 9) == 2);
    CHECK(rounds(Algorithm::direct, Op::allgather, 9) == 1);
  }
  SUBCASE("rhd takes log2 N rounds per pass, plus one before and one after when N is not a power of two") {
    CHECK(rounds(Algorithm::rhd, Op::allreduce, 8) == 6);
    CHECK(rounds(Algorithm::rhd, Op::reducescatter, 16) == 4);
    CHECK(rounds(Algorithm::rhd, Op::allreduce, 6) == 2 + 4);
    CHECK(rounds(Algorithm::rhd, Op::allgather, 13) == 2 + 3);
  }
  SUBCASE("the tree climbs and descends its depth; pipelined, each pass takes depth + N - 1 rounds") {
    CHECK(rounds(Algorithm::tree, Op::allreduce, 7) == 4);
    CHECK(rounds(Algorithm::tree, Op::allreduce, 8) == 6);
    CHECK(rounds(Algorithm::tree_pipelined, Op::allreduce, 4) == 2 * (2 + 3));
  }
}

TEST_CASE("naive sends everything through GPU 0") {
  const Config config = ConfigBuilder().algorithm(Algorithm::naive).ranks(4).count(8);
  const Schedule schedule = make_schedule(config);
  const Traffic traffic = compute_traffic(schedule, make_layout(config), config.dtype, config.ranks);
  // GPU 0 takes in three whole buffers and sends out three; the others one each way.
  CHECK(traffic.total_received(0) == 3 * 8 * 4);
  CHECK(traffic.total_sent(0) == 3 * 8 * 4);
  for (int rank = 1; rank < 4; ++rank) {
    CHECK(traffic.total_sent(rank) == 8 * 4);
    CHECK(traffic.total_received(rank) == 8 * 4);
  }
  for (const Round& round : schedule.rounds)
    for (const Transfer& transfer : round.transfers) CHECK((transfer.src == 0 || transfer.dst == 0));
}

TEST_CASE("rhd with a power of two sends what the ring sends, in log2 N rounds") {
  for (int n : {2, 4, 8, 16}) {
    const Config config = ConfigBuilder().algorithm(Algorithm::rhd).ranks(n).count(64 * n);
    const Traffic traffic = compute_traffic(make_schedule(config), make_layout(config), config.dtype, n);
    for (int rank = 0; rank < n; ++rank)
      CHECK(traffic.total_sent(rank) ==
            static_cast<std::int64_t>(ring_allreduce_bytes_per_gpu(n, 64.0 * n * 4)));
  }
}

TEST_CASE("the ring sends no more bytes per GPU than any other algorithm that reduces on the GPUs for AllReduce") {
  for (int n = 1; n <= 17; ++n)
    for (std::int64_t count : {std::int64_t{n}, std::int64_t{1000 * n}, std::int64_t{1000}, std::int64_t{n + 1}}) {
      const auto busiest_sender = [&](Algorithm algorithm) {
        const Config config = ConfigBuilder().algorithm(algorithm).ranks(n).count(count);
        const Traffic traffic = compute_traffic(make_schedule(config), make_layout(config), config.dtype, n);
        std::int64_t most = 0;
        for (int rank = 0; rank < n; ++rank) most = std::max(most, traffic.total_sent(rank));
        return most;
      };
      const std::int64_t ring = busiest_sender(Algorithm::ring);
      for (Algorithm algorithm : kAllAlgorithms) {
        CAPTURE(algorithm_name(algorithm));
        CAPTURE(n);
        CAPTURE(count);
        // A switch that reduces (nvls) takes the ring's bound away: each GPU sends its M once.
        if (algorithm_unit(algorithm).reduces_in_switch)
          CHECK(busiest_sender(algorithm) == (n > 1 ? count * 4 : 0));
        else
          CHECK(ring <= busiest_sender(algorithm));
      }
    }
}

TEST_CASE("an algorithm asked for an op it lacks is refused, naming the ones that have it") {
  Config config = ConfigBuilder().algorithm(Algorithm::tree).op(Op::reducescatter);
  const auto problem = validate(config);
  REQUIRE(problem.has_value());
  // The parenthesis lists every registered algorithm that has the op, in the registry's order.
  std::vector<std::string_view> having;
  for (Algorithm other : kAllAlgorithms)
    if (algorithm_supports(other, Op::reducescatter)) having.push_back(algorithm_name(other));
  CHECK(*problem == "--algo tree: supports allreduce only (" + join_and(having) + " support reducescatter)");
  CHECK(problem->find("(ring, ") != std::string::npos);
  CHECK_THROWS_AS(make_schedule(config), InputError);
  CHECK_THROWS_AS(Session(config, make_cpu_backend(1)), InputError);
  config.op = Op::allreduce;
  CHECK_FALSE(validate(config).has_value());
}

TEST_CASE("sendrecv is refused by every algorithm as a transfer, not a schedule") {
  for (Algorithm algorithm : kAllAlgorithms) {
    CAPTURE(algorithm_name(algorithm));
    const Config config = ConfigBuilder().algorithm(algorithm).op(Op::sendrecv);
    const auto problem = validate(config);
    REQUIRE(problem.has_value());
    CHECK(problem->rfind("--op sendrecv: a point-to-point transfer between two GPUs", 0) == 0);
    CHECK(problem->find("not as a schedule of rounds") != std::string::npos);
    CHECK_THROWS_AS(make_schedule(config), InputError);
  }
}

TEST_CASE("broadcast, alltoall and sendrecv are read under their usual spellings") {
  CHECK(parse_op("bcast") == Op::broadcast);
  CHECK(parse_op("all-to-all") == Op::alltoall);
  CHECK(parse_op("all_to_all") == Op::alltoall);
  CHECK(parse_op("send") == Op::sendrecv);
  CHECK(parse_op("recv") == Op::sendrecv);
  CHECK(op_display_name(Op::broadcast) == "Broadcast");
  CHECK(op_display_name(Op::alltoall) == "AllToAll");
  CHECK(op_display_name(Op::sendrecv) == "Send/Recv");
}

TEST_CASE("algorithm names read back as themselves and ring stays the default") {
  CHECK(Config{}.algorithm == Algorithm::ring);
  for (Algorithm algorithm : kAllAlgorithms) CHECK(parse_algorithm(algorithm_name(algorithm)) == algorithm);
  CHECK_THROWS_AS(parse_algorithm("butterfly", "--algo"), InputError);
}
