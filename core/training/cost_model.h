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
#include "core/schedule/schedule.h"

namespace ringviz {

struct LinkModel {
  std::string key;    // what --link takes: "nvlink4"
  std::string label;  // "NVLink 4 (H100/H200)"
  double alpha_seconds = 0;           // per message
  double bytes_per_second = 1;        // per direction per GPU; β = 1 / bytes_per_second
  double gamma_seconds_per_byte = 0;  // per byte reduced
  std::string note;                   // where α comes from, in one line

  double beta() const { return 1.0 / bytes_per_second; }
};

// NVLink 4, PCIe 4 and 5, InfiniBand 100 and 400 Gb/s (see cost_model.cpp for the figures).
std::span<const LinkModel> link_presets();
// Throws InputError naming `field` and the preset keys.
const LinkModel& find_link_preset(std::string_view key, std::string_view field = "--link");

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
  double seconds = 0;  // predicted time
  std::vector<RoundCost> per_round;
};

CostEstimate estimate_cost(const Config& config, const Schedule& schedule, const SlotLayout& layout,
                           const LinkModel& link);
// Builds the schedule and layout of `config` (only op, algorithm, order, ranks, count and
// dtype matter). Throws InputError when the algorithm lacks the op.
CostEstimate estimate_cost(const Config& config, const LinkModel& link);

// The textbook shape of an algorithm's cost, with n = bytes each GPU starts with; the estimate
// equals it when N divides the element count and N is a power of two (for the trees: N + 1
// is, so the tree is full). "" when the algorithm lacks the op.
std::string_view cost_formula(Algorithm algorithm, Op op);

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
  Config config;  // op, ranks, count, dtype of the question
  LinkModel link;
  std::vector<Algorithm> algorithms;   // every algorithm that has the op, ring first
  std::vector<CostEstimate> at_count;  // the figures at config.count, same order
  std::vector<std::int64_t> sweep_bytes;           // message sizes, bytes per GPU
  std::vector<std::vector<double>> sweep_seconds;  // [algorithm][size]
  std::vector<Algorithm> sweep_fastest;            // [size]; near-ties (1e-6) go to the earlier one
  std::vector<Crossover> crossovers;               // where the fastest algorithm changes
};

CostComparison compare_algorithms(const Config& config, const LinkModel& link,
                                  const SweepOptions& sweep = {});

}  // namespace ringviz
