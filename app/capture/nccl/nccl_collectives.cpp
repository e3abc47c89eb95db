#include "app/capture/nccl/nccl_collectives.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <mpi.h>

#include "app/capture/nccl/nccl_join.h"

namespace ringviz::capture {

namespace {

const char* nccl_collective_name(Op op) {
  switch (op) {
    case Op::allreduce: return "ncclAllReduce";
    case Op::allgather: return "ncclAllGather";
    case Op::reducescatter: return "ncclReduceScatter";
    case Op::broadcast: return "ncclBroadcast";
    // NCCL has no all-to-all call: it is a group of ncclSend and ncclRecv.
    case Op::alltoall: return "ncclSend/ncclRecv (all-to-all)";
    case Op::sendrecv: return "ncclSend/ncclRecv";
  }
  return "";
}

// NCCL's collective in the working-buffer convention of library_collectives(): the send buffer
// cut from `buffer`, the result put back where the in-process engine keeps it.
double run_nccl_collective(gpu::NcclRankEngine& engine, const Config& config, const CollectiveShape& shape,
                           ByteBuffer& buffer, int iterations) {
  const std::size_t element = dtype_size(config.dtype);
  const auto bytes = [&](std::int64_t elements) { return static_cast<std::size_t>(elements) * element; };
  const Slot& mine = shape.layout[engine.rank()];
  // ReduceScatter: NCCL's chunks are equal, ours differ by one element when N does not divide
  // the count, so every slot travels in a chunk of the largest slot's size, padded with zeros
  // that no rank keeps.
  std::int64_t chunk = 0;
  for (const Slot& slot : shape.layout.slots) chunk = std::max(chunk, slot.count);
  ByteBuffer input;
  switch (config.op) {
    case Op::allreduce: input = buffer; break;
    case Op::allgather:
      input.assign(buffer.begin() + static_cast<std::ptrdiff_t>(bytes(mine.offset)),
                   buffer.begin() + static_cast<std::ptrdiff_t>(bytes(mine.offset + mine.count)));
      break;
    case Op::reducescatter:
      input.assign(bytes(chunk * shape.ranks), std::byte{0});
      for (int slot = 0; slot < shape.ranks; ++slot)
        std::memcpy(input.data() + bytes(chunk * slot), buffer.data() + bytes(shape.layout[slot].offset),
                    bytes(shape.layout[slot].count));
      break;
    case Op::broadcast:
    case Op::alltoall:
    case Op::sendrecv: return 0;  // nccl_library_collectives() gives these no row
  }
  const gpu::NcclCollectiveRun run = engine.run_collective(config.op, config.dtype, config.reduce, input, iterations,
                                                           [] { MPI_Barrier(MPI_COMM_WORLD); });
  if (config.op == Op::reducescatter)
    std::memcpy(buffer.data() + bytes(mine.offset), run.output.data(), bytes(mine.count));
  else
    buffer = run.output;
  return run.seconds;
}

}  // namespace

std::vector<LibraryCollective> nccl_library_collectives(const Config& config, std::vector<std::string>& notes) {
  const std::string name = nccl_collective_name(config.op);
  if (!is_gather_or_reduce(config.op)) {
    notes.push_back(name + ": not measured: ringviz compares NCCL on allgather, reducescatter and allreduce only");
    return {};
  }
  std::string refusal;
  std::shared_ptr<gpu::NcclRankEngine> engine = join_nccl(refusal);
  if (!engine) {
    notes.push_back(name + ": not measured: " + refusal);
    return {};
  }
  // The engine set NCCL_ALGO=Ring unless the user chose otherwise.
  const char* algorithm = std::getenv("NCCL_ALGO");
  return {{name + " (NCCL_ALGO=" + (algorithm ? algorithm : "") + ")",
           [engine](const Config& run_config, const CollectiveShape& shape, ByteBuffer& buffer, int iterations) {
             return run_nccl_collective(*engine, run_config, shape, buffer, iterations);
           }}};
}

}  // namespace ringviz::capture
