#pragma once
// The α-β-γ cost model of Thakur, Rabenseifner and Gropp, "Optimization of Collective
// Communication Operations in MPICH" (2005): a message of b bytes costs α + bβ to send, and
// folding b bytes into a local buffer costs bγ. Here it is applied to the schedules themselves,
// round by round, so every algorithm ringviz can run is also one it can price.
//
// The machine: every GPU has one full-duplex link into the fabric (NVLink through NVSwitch,
// a PCIe slot, a NIC) with 1/β bytes per second in each direction. In a round a GPU sends
// its messages back to back and, at the same time, receives its messages back to back,
// folding each as it lands; a message is everything one GPU sends one other GPU in a round,
// and each message pays α once on each side. The round ends when the slowest side of the
// slowest GPU is done; the collective takes the sum of its rounds.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/config.h"
#include "core/model/layout.h"
#include "core/model/text.h"
#include "core/algorithms/registry.h"
#include "core/topology/link_model.h"
#include "core/topology/contention.h"
#include "core/topology/topology.h"

namespace ringviz {

// Coefficients of α, β and γ: time = α·messages + β·bytes + γ·reduced_bytes.
struct CostTerms {
  double messages = 0;
  double bytes = 0;
  double reduced_bytes = 0;

  double seconds(const LinkModel& link) const {
    return messages * link.alpha_seconds + bytes * link.beta() + reduced_bytes * link.gamma_seconds_per_byte;
  }
};

// When one transfer of a round happens, in seconds from the start of the round: on its
// sender's outgoing side and on its receiver's incoming side.
struct TransferTiming {
  double send_start = 0;
  double send_seconds = 0;
  double receive_start = 0;
  double receive_seconds = 0;
};

struct RoundCost {
  double seconds = 0;
  int critical_rank = 0;           // the GPU whose side finishes last
  bool critical_receives = false;  // ... and which side
  CostTerms terms;                 // that side's α, β, γ coefficients
  std::vector<TransferTiming> transfers;  // parallel to Round::transfers
};

// One round under the model. `ranks` is N.
RoundCost cost_of_round(const Round& round, const SlotLayout& layout, DType dtype, int ranks,
                        const LinkModel& link);

struct CostEstimate {
  Algorithm algorithm = Algorithm::ring;
  Op op = Op::allreduce;
  int ranks = 1;
  std::int64_t count = 0;
  DType dtype = DType::f32;
  std::int64_t message_bytes = 0;  // what each GPU starts with: count × sizeof(T)

  int rounds = 0;
  std::int64_t messages = 0;        // the most messages one GPU sends
  std::int64_t messages_total = 0;  // all GPUs together
  std::vector<std::int64_t> bytes_sent;  // per GPU
  std::int64_t max_bytes_sent = 0;       // the busiest sender
  // The busiest link direction over the whole collective: which GPU, in or out, how much.
  std::int64_t busiest_link_bytes = 0;
  int busiest_link_rank = 0;
  bool busiest_link_inbound = false;
  std::int64_t max_bytes_reduced = 0;  // the most bytes one GPU folds

  CostTerms terms;     // summed over rounds, each round's critical side
  double seconds = 0;  // predicted time: simulated when priced on a topology
  std::vector<RoundCost> per_round;  // the contention-free model's rounds
  // Priced on a topology: the contention-free model's time, and the simulation whose end is
  // `seconds` (per transfer and per link only where detail was asked for).
  double contention_free_seconds = 0;
  Simulation simulation;
};

CostEstimate estimate_cost(const Config& config, const Schedule& schedule, const SlotLayout& layout,
                           const LinkModel& link);
// Builds the schedule and layout of `config` (only op, algorithm, order, ranks, count and
// dtype matter). Throws InputError when the algorithm lacks the op.
CostEstimate estimate_cost(const Config& config, const LinkModel& link);
// The same question on a topology (docs/architecture.md, "Topology and contention"): the
// counts as above, and `seconds` from the contention simulation of the schedule, pipelined
// when config.channels or config.slices is above 1. The topology's link classes stand in for
// `link` in the counts' α, β, γ terms. Throws InputError when config.ranks differs from
// topology.gpus or the algorithm lacks the op.
CostEstimate estimate_cost(const Config& config, const Topology& topology, bool detail = true);

// The textbook shape of an algorithm's cost, with n = bytes each GPU starts with; the estimate
// equals it when N divides the element count and N is a power of two (for the trees: N + 1
// is, so the tree is full). "" when the algorithm lacks the op. The trees' note on D is worded
// in `language`; the formula itself is the same in both.
std::string cost_formula(Algorithm algorithm, Op op, Language language = Language::en);

// --- comparing algorithms (the data behind `ringviz compare` and the GUI's panel) ---

struct SweepOptions {
  std::int64_t min_bytes = std::int64_t{1} << 10;  // 1 KiB
  std::int64_t max_bytes = std::int64_t{1} << 30;  // 1 GiB
  int points_per_doubling = 1;
};

// From `bytes` on (per GPU), `faster` beats `slower`, which was fastest just below.
struct Crossover {
  std::int64_t bytes = 0;
  Algorithm slower = Algorithm::ring;
  Algorithm faster = Algorithm::ring;
};

struct CostComparison {
  Config config;  // op, ranks, count, dtype, channels and slices of the question
  LinkModel link;  // the link of a star topology; for a topology preset or file, its first link's class
  Topology topology;  // where the transfers were simulated
  std::vector<Algorithm> algorithms;   // every algorithm that has the op, ring first
  std::vector<CostEstimate> at_count;  // the figures at config.count, same order
  std::vector<std::int64_t> sweep_bytes;           // message sizes, bytes per GPU
  std::vector<std::vector<double>> sweep_seconds;  // [algorithm][size]
  std::vector<Algorithm> sweep_fastest;            // [size]; near-ties (1e-6) go to the earlier one
  std::vector<Crossover> crossovers;               // where the fastest algorithm changes
  // Algorithms whose schedule has more than kMaxSweptTransfers transfers: simulated at
  // config.count only, and swept with the contention-free model so that a comparison stays
  // within seconds (a sweep simulates every algorithm at a hundred sizes or so).
  std::vector<Algorithm> swept_without_contention;
};

inline constexpr std::int64_t kMaxSweptTransfers = 20000;

// Every time in a comparison is simulated with contention (contention.h). On a link preset the
// machine is star_topology(link, config.ranks): each GPU one port into a non-blocking switch.
CostComparison compare_algorithms(const Config& config, const LinkModel& link,
                                  const SweepOptions& sweep = {});
// On a topology; config.ranks must equal topology.gpus (InputError naming --gpus otherwise).
CostComparison compare_algorithms(const Config& config, const Topology& topology,
                                  const SweepOptions& sweep = {});

}  // namespace ringviz
