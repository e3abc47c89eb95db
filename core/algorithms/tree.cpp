// tree: AllReduce over a binary tree rooted at GPU 0, numbered like a heap (the parent of r is
// (r - 1) / 2, its children 2r + 1 and 2r + 2). A reduce climbs the tree, a broadcast comes
// back down. Only about 2·log2 N hops, so few messages; but a parent takes in two children's
// data over one link, and the leaves' links sit idle most of the time.
#include "core/algorithms/tree.h"

#include "core/algorithms/unit_words.h"
#include "core/schedule/pipeline.h"
#include "core/schedule/schedule_steps.h"

namespace ringviz {

using namespace schedule_steps;

int tree_depth(int rank) {
  int depth = 0;
  for (int r = rank + 1; r > 1; r /= 2) ++depth;
  return depth;
}

namespace {

// The slot-s transfer from `child` into the root completes slot s when no later child of the
// root sends it (the root folds child 1, then child 2).
bool completes_at_root(int child, int ranks) {
  const int parent = (child - 1) / 2;
  return parent == 0 && (child == 2 || ranks == 2);
}

}  // namespace

Schedule binary_tree_rounds(const Config& config, bool pipelined) {
  const int n = config.ranks;
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  if (n == 1) return schedule;
  const int deepest = tree_depth(n - 1);

  if (!pipelined) {
    // step 0 .. D-1: the GPUs at depth D - step fold their whole buffer into their parent.
    for (int depth = deepest; depth >= 1; --depth) {
      Round round{Phase::reduce_scatter, {}};
      for (int rank = 1; rank < n; ++rank)
        if (tree_depth(rank) == depth)
          for (int slot = 0; slot < n; ++slot)
            send_reduce(round, rank, (rank - 1) / 2, slot, completes_at_root(rank, n));
      schedule.rounds.push_back(std::move(round));
    }
    // step D .. 2D-1: the GPUs at depth step - D copy the whole result to their children.
    for (int depth = 0; depth < deepest; ++depth) {
      Round round{Phase::all_gather, {}};
      for (int rank = 1; rank < n; ++rank)
        if (tree_depth((rank - 1) / 2) == depth)
          for (int slot = 0; slot < n; ++slot) send_copy(round, (rank - 1) / 2, rank, slot);
      schedule.rounds.push_back(std::move(round));
    }
    return schedule;
  }

  // Pipelined reduce, D + N - 1 rounds: at round t a GPU at depth d pushes slot t - (D - d) to
  // its parent. Its children pushed that slot one round earlier, so it is already folded in,
  // and this round they push the next slot, which it is not sending.
  const int rounds = deepest + n - 1;
  for (int t = 0; t < rounds; ++t) {
    Round round{Phase::reduce_scatter, {}};
    for (int rank = 1; rank < n; ++rank) {
      const int slot = t - (deepest - tree_depth(rank));
      if (slot >= 0 && slot < n)
        send_reduce(round, rank, (rank - 1) / 2, slot, completes_at_root(rank, n));
    }
    schedule.rounds.push_back(std::move(round));
  }
  // Pipelined broadcast, D + N - 1 rounds: at round t a GPU at depth d copies slot t - d to
  // its children, the slot its parent copied to it one round earlier.
  for (int t = 0; t < rounds; ++t) {
    Round round{Phase::all_gather, {}};
    for (int rank = 1; rank < n; ++rank) {
      const int parent = (rank - 1) / 2;
      const int slot = t - tree_depth(parent);
      if (slot >= 0 && slot < n) send_copy(round, parent, rank, slot);
    }
    schedule.rounds.push_back(std::move(round));
  }
  return schedule;
}

bool tree_supports(Op op) { return op == Op::allreduce; }

PhaseWord tree_phase(const CaptionContext&, const Round& round) {
  return round.phase == Phase::reduce_scatter ? PhaseWord::reduce : PhaseWord::broadcast;
}

namespace {

constexpr Words kPlan{
    "A binary tree rooted at GPU 0 (children of GPU r: 2r+1, 2r+2). In %d rounds the buffers are "
    "reduced up the tree level by level, then the result is copied down.",
    "以 GPU 0 为根的二叉树（GPU r 的子节点是 2r+1、2r+2）。共 %d 轮：缓冲区逐层向上归约，结果再逐层拷贝下来。"};
constexpr Words kUp{
    "The GPUs at depth %d of the tree send their whole buffer up to their parent (GPU %d to GPU %d, ...), "
    "which folds it in (reduce).",
    "深度为 %d 的 GPU 把整个缓冲区向上发给父节点（GPU %d 发给 GPU %d，……），父节点合并进来（归约）。"};
constexpr Words kDown{
    "The GPUs at depth %d copy the whole result down to their children (GPU %d to GPU %d, ...).",
    "深度为 %d 的 GPU 把完整结果向下拷贝给子节点（GPU %d 发给 GPU %d，……）。"};
constexpr Words kTraffic{
    "%s: M up to its parent, M down to each child",
    "%s：向父节点发 M，向每个子节点发 M"};
constexpr Words kTrafficValues{
    "busiest, GPU %d: %d x %s = %s",
    "最多的是 GPU %d：%d x %s = %s"};


// Every hop moves the whole buffer: a GPU sends M to its parent and M to each child, so the
// busiest is the first with two children.
}  // namespace

TrafficFormula tree_traffic(Language l, Op, int n, int /*root*/, double m, const std::string& subject) {
  TrafficFormula f;
  int busiest_gpu = 0, busiest_buffers = 0;
  for (int r = 0; r < n; ++r) {
    const int buffers = (r > 0 ? 1 : 0) + (2 * r + 1 < n ? 1 : 0) + (2 * r + 2 < n ? 1 : 0);
    if (buffers > busiest_buffers) {
      busiest_buffers = buffers;
      busiest_gpu = r;
    }
  }
  f.busiest_bytes = busiest_buffers * m;
  f.formula = formatted(kTraffic.in(l).data(), subject.c_str());
  f.values = formatted(kTrafficValues.in(l).data(), busiest_gpu, busiest_buffers, format_binary_bytes(m).c_str(),
                       format_binary_bytes(f.busiest_bytes).c_str());
  return f;
}

namespace {

std::string tree_plan(const CaptionContext& c) {
  return formatted(kPlan.in(c.language).data(), lock_step_round_count(c.schedule));
}

std::string tree_round(const CaptionContext& c) {
  const RoundShape shape = shape_of(c.schedule.rounds[static_cast<std::size_t>(c.round - 1)]);
  if (shape.first == nullptr) return "";
  return formatted((shape.reduces ? kUp : kDown).in(c.language).data(), tree_depth(shape.first->src),
                   shape.first->src, shape.first->dst);
}

constexpr Words kAllWords[] = {kPlan, kUp, kDown, kTraffic, kTrafficValues};

}  // namespace

const AlgorithmUnit& tree_unit() {
  static const AlgorithmUnit unit{
      .id = Algorithm::tree,
      .name = "tree",
      .aliases = "",
      .help = "",
      .title = {"Tree", "树形"},
      .menu_name = {},
      .label = {},
      .chart_colour = {176, 124, 236},
      .reduces_into_one_gpu = true,
      .supports = tree_supports,
      .rounds = [](const Config& config) { return binary_tree_rounds(config, false); },
      .cost_shape = [](Op) -> std::string_view { return "4D·α + 4D·nβ + 2D·nγ, D = log2(N+1) - 1"; },
      .cost_note = kFullTreeNote,
      .traffic = tree_traffic,
      .captions = {.start = tree_plan, .round = tree_round, .phase = tree_phase},
      .words = kAllWords,
  };
  return unit;
}

}  // namespace ringviz
