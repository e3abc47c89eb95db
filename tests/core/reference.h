#pragma once
// What each collective must produce, computed straight from the collective semantics
// (docs/architecture.md) and the inputs, without the schedule, the session, the backends or
// element_math.h: the ring code is checked against something that cannot share its mistakes.
#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "core/model/buffers.h"
#include "core/model/config.h"

namespace ringviz::test {

// Each rank's `count` input values as stored, cut out of the initial working buffer
// (AllGather keeps rank r's input in block r, the others at the start).
std::vector<ByteBuffer> inputs_of(const Config& config, const BufferState& initial);

// Each rank's inputs for an `init: values` config, stored in the element type. The table's
// values must already be representable in that type (see representable()), so nothing here
// rounds and the reference does not depend on how make_initial_state converts.
std::vector<ByteBuffer> inputs_from_values(const Config& config);
// `value` rounded to the nearest value of `dtype` (integers truncate), as a double.
double representable(DType dtype, double value);

// The semantics' slot sizes: floor(count/N), the first count % N slots one longer.
std::vector<std::int64_t> plain_slot_sizes(std::int64_t count, int ranks);

// The outputs as the collective semantics define them (AllGather N x count, ReduceScatter one slot,
// AllReduce count), every slot folded in the order the ring applies it: the partial result
// of slot s starts at rank s (seed order) or s + 1 (nccl order) and each receiver computes
// incoming (+) local in the type's arithmetic, f16/bf16 rounded at every step, avg divided
// by N once at the end. Bit-exact target for every type. AllGather and AllReduce, where
// every rank must hold the same output, return that output once.
std::vector<ByteBuffer> ring_order_outputs(const Config& config, const std::vector<ByteBuffer>& inputs);

// The orders in which an element's contributions are folded. ring: as above. bidirectional_ring
// (docs/architecture.md, "Collective semantics", the bidirectional ring): the first half of every slot (the longer
// one when its size is odd) as the ring; the second half starts one GPU below the ring's owner
// of the slot and goes down, GPU by GPU, to that owner. rank_order: GPU 0, 1, ... N-1, for
// results that do not depend on the order (integers, max, min, copies). switch_from_owner (nvls,
// the NVSwitch's sum, whatever --order says): slot s starts with GPU s's part and takes GPU s+1,
// s+2, ... round to s-1, each part p folded as p (+) sum.
enum class FoldOrder { ring, bidirectional_ring, rank_order, switch_from_owner };
// The order an algorithm documents, by its command-line name; nullopt when it fixes none (its
// results are then checked within rounding).
std::optional<FoldOrder> documented_fold_order(std::string_view algorithm_name);
// The outputs folded in `order`. ReduceScatter keeps on GPU r the slot owned[r], or the ring's
// owner (seed order: slot r + 1; nccl: slot r) when `owned` is empty.
std::vector<ByteBuffer> fold_order_outputs(const Config& config, const std::vector<ByteBuffer>& inputs,
                                           FoldOrder order, const std::vector<int>& owned = {});

// AllToAll as the semantics define it: GPU r's output holds, in slot i, block r of GPU i's
// input, where a block is count / N elements and the count % N left over take no part (the
// output is N x (count / N) elements). With Config::splits, GPU r's output is the split[s][r]
// elements each sender s holds for it, sender by sender, read from s's input at the sum of
// its earlier blocks. No arithmetic, so bit-exact for every type.
std::vector<ByteBuffer> all_to_all_outputs(const Config& config, const std::vector<ByteBuffer>& inputs);

// Broadcast as the semantics define it: every GPU's output is the root's input (config.root),
// whatever the others held. No arithmetic, so bit-exact for every type.
std::vector<ByteBuffer> broadcast_outputs(const Config& config, const std::vector<ByteBuffer>& inputs);

// For floating types: the largest |actual - exact| over every output element divided by the
// error the type's rounding may introduce there (so <= 1 passes), where exact is the
// reduction computed in long double and the allowed error is 2 N u sum|x| for sum, that over
// N plus 2u|avg| for avg, 2 N u |prod| for prod, and 0 for max and min (u: the type's unit
// roundoff). The factor 2 over the textbook (N-1)u bound covers the long double reference's
// own rounding where long double is only double.
// `owned` as for fold_order_outputs.
double worst_error_ratio(const Config& config, const std::vector<ByteBuffer>& inputs,
                         const std::vector<ByteBuffer>& outputs, const std::vector<int>& owned = {});

// "" when `actual` and `expected` are byte-identical; otherwise the first differing element
// of each, e.g. "GPU 2 [17] = 3.5 (0x4300)", so a CHECK on the pair shows both values. A
// single `expected` buffer is what every rank must hold.
struct Difference {
  std::string actual;
  std::string expected;
};
Difference first_difference(DType dtype, const std::vector<ByteBuffer>& actual,
                            const std::vector<ByteBuffer>& expected);

// A short description of a config for INFO(): "allreduce nccl N=5 count=101 f16 avg".
std::string describe(const Config& config);

}  // namespace ringviz::test
