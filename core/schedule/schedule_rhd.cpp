// rhd: recursive halving and doubling. With N a power of two, log2 N rounds per pass: at each
// round a GPU trades half of what it still works on with a partner whose rank differs in one
// bit, so the distance doubles (or halves) and the message halves (or doubles).
//
// N not a power of two: let p be the largest power of two below N and extra = N - p. Ranks
// 0 .. 2·extra - 1 pair up (2i, 2i + 1): first the even one folds its buffer into the odd one
// and sits out; the remaining p ranks run the power-of-two algorithm as "virtual ranks"; last,
// the odd one hands the even one its result.
#include "core/schedule/schedule_algorithms.h"

namespace ringviz {

using namespace schedule_steps;

namespace {

struct VirtualRanks {
  int p = 1;      // participants: the largest power of two <= N
  int extra = 0;  // N - p ranks that fold into a partner first

  explicit VirtualRanks(int n) {
    while (p * 2 <= n) p *= 2;
    extra = n - p;
  }
  // The real GPU that plays virtual rank v.
  int real(int v) const { return v < extra ? 2 * v + 1 : v + extra; }
  // The virtual rank a slot ends up with: the one that plays its owner or the owner's partner.
  int home(int slot) const { return slot < 2 * extra ? slot / 2 : slot - extra; }
};

// Recursive halving. Distance d = p/2, p/4 ... 1: virtual rank v still works on the slots whose
// home lies in v's aligned block of 2d virtual ranks; it keeps the half whose home agrees with
// v in bit d and sends the other half to v ^ d, which folds it in. After the d = 1 round every
// slot sits fully reduced with its home.
void append_halving(const Config& config, const VirtualRanks& virt, Schedule& schedule) {
  const int n = config.ranks;
  for (int d = virt.p / 2; d >= 1; d /= 2) {
    Round round{Phase::reduce_scatter, {}};
    for (int v = 0; v < virt.p; ++v) {
      const int partner = v ^ d;
      for (int slot = 0; slot < n; ++slot) {
        const int home = virt.home(slot);
        const bool in_block = (home & ~(2 * d - 1)) == (v & ~(2 * d - 1));
        if (in_block && (home & d) == (partner & d))
          send_reduce(round, virt.real(v), virt.real(partner), slot, d == 1);
      }
    }
    schedule.rounds.push_back(std::move(round));
  }
}

// Recursive doubling. Distance d = 1, 2 ... p/2: virtual rank v holds every slot whose home
// lies in its aligned block of d virtual ranks and sends all of them to v ^ d.
void append_doubling(const Config& config, const VirtualRanks& virt, Schedule& schedule) {
  const int n = config.ranks;
  for (int d = 1; d < virt.p; d *= 2) {
    Round round{Phase::all_gather, {}};
    for (int v = 0; v < virt.p; ++v) {
      const int partner = v ^ d;
      for (int slot = 0; slot < n; ++slot)
        if ((virt.home(slot) & ~(d - 1)) == (v & ~(d - 1)))
          send_copy(round, virt.real(v), virt.real(partner), slot);
    }
    schedule.rounds.push_back(std::move(round));
  }
}

}  // namespace

Schedule make_rhd_schedule(const Config& config) {
  const int n = config.ranks;
  const VirtualRanks virt(n);
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  if (n == 1) return schedule;
  const bool gather_only = config.op == Op::allgather;
  const Phase first_phase = gather_only ? Phase::all_gather : Phase::reduce_scatter;
  const Phase last_phase = config.op == Op::reducescatter ? Phase::reduce_scatter : Phase::all_gather;

  // pre-step: each even rank below 2·extra hands its data to the odd rank above it: its block
  // (AllGather) or its whole buffer, folded in (ReduceScatter, AllReduce).
  if (virt.extra > 0) {
    Round fold{first_phase, {}};
    for (int i = 0; i < virt.extra; ++i) {
      if (gather_only) {
        send_copy(fold, 2 * i, 2 * i + 1, 2 * i);
      } else {
        for (int slot = 0; slot < n; ++slot) send_reduce(fold, 2 * i, 2 * i + 1, slot);
      }
    }
    schedule.rounds.push_back(std::move(fold));
  }

  if (!gather_only) append_halving(config, virt, schedule);
  if (config.op != Op::reducescatter) append_doubling(config, virt, schedule);

  // post-step: the odd rank hands its partner the result: slot 2i (ReduceScatter), every block
  // but the partner's own (AllGather), or the whole buffer (AllReduce).
  if (virt.extra > 0) {
    Round unfold{last_phase, {}};
    for (int i = 0; i < virt.extra; ++i)
      for (int slot = 0; slot < n; ++slot) {
        const bool wanted = config.op == Op::allreduce ||
                            (config.op == Op::reducescatter ? slot == 2 * i : slot != 2 * i);
        if (wanted) send_copy(unfold, 2 * i + 1, 2 * i, slot);
      }
    schedule.rounds.push_back(std::move(unfold));
  }
  return schedule;
}

}  // namespace ringviz
