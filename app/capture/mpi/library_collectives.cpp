#include "app/capture/mpi/library_collectives.h"

#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include <mpi.h>

namespace ringviz::capture {

namespace {

std::optional<MPI_Datatype> mpi_type(DType dtype) {
  switch (dtype) {
    case DType::f32: return MPI_FLOAT;
    case DType::f64: return MPI_DOUBLE;
    case DType::i32: return MPI_INT32_T;
    case DType::i64: return MPI_INT64_T;
    default: return std::nullopt;  // MPI has no 16-bit float type
  }
}

std::optional<MPI_Op> mpi_op(ReduceOp reduce) {
  switch (reduce) {
    case ReduceOp::sum: return MPI_SUM;
    case ReduceOp::prod: return MPI_PROD;
    case ReduceOp::max: return MPI_MAX;
    case ReduceOp::min: return MPI_MIN;
    default: return std::nullopt;  // avg is not an MPI reduction
  }
}

// OpenMPI's tuned component: the control variable that forces an algorithm for `op`, and the
// number of its ring (OpenMPI 4.1's coll_tuned_*_algorithm enumerations).
struct ForcedRing {
  const char* variable;
  int ring;
};
ForcedRing forced_ring(Op op) {
  switch (op) {
    case Op::allreduce: return {"coll_tuned_allreduce_algorithm", 4};
    case Op::allgather: return {"coll_tuned_allgather_algorithm", 4};
    case Op::reducescatter: return {"coll_tuned_reduce_scatter_algorithm", 3};
    // Broadcast's "pipeline": a chain in segments, the schedule NCCL's ring broadcast runs.
    case Op::broadcast: return {"coll_tuned_bcast_algorithm", 3};
    case Op::alltoall:   // OpenMPI's tuned alltoall has no ring
    case Op::sendrecv: break;  // library_collectives() gives it no row
  }
  return {"", 0};
}

int find_control_variable(const char* wanted) {
  int count = 0;
  if (MPI_T_cvar_get_num(&count) != MPI_SUCCESS) return -1;
  for (int index = 0; index < count; ++index) {
    char name[256];
    int name_length = sizeof name;
    int verbosity = 0, bind = 0, scope = 0, description_length = 0;
    MPI_Datatype type;
    MPI_T_enum enumeration;
    if (MPI_T_cvar_get_info(index, name, &name_length, &verbosity, &type, &enumeration, nullptr, &description_length,
                            &bind, &scope) == MPI_SUCCESS &&
        std::strcmp(name, wanted) == 0)
      return index;
  }
  return -1;
}

// Writes an int control variable and reads it back; the value it holds afterwards, or nothing.
std::optional<int> write_control_variable(const char* name, std::optional<int> value) {
  const int index = find_control_variable(name);
  if (index < 0) return std::nullopt;
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) return std::nullopt;
  // A boolean variable reads back as one byte: the rest of the int must start at zero.
  int held = 0;
  const bool ok = (!value || MPI_T_cvar_write(handle, &*value) == MPI_SUCCESS) &&
                  MPI_T_cvar_read(handle, &held) == MPI_SUCCESS;
  MPI_T_cvar_handle_free(&handle);
  return ok ? std::optional<int>(held) : std::nullopt;
}

// A communicator duplicated from the world, freed (collectively) with the last row using it.
using SharedComm = std::shared_ptr<MPI_Comm>;
SharedComm duplicate_world() {
  auto comm = std::shared_ptr<MPI_Comm>(new MPI_Comm(MPI_COMM_NULL), [](MPI_Comm* owned) {
    if (*owned != MPI_COMM_NULL) MPI_Comm_free(owned);
    delete owned;
  });
  MPI_Comm_dup(MPI_COMM_WORLD, comm.get());
  return comm;
}

// The library's collective on `comm`, in the working-buffer convention of library_collectives().
double run_mpi_collective(const SharedComm& comm, MPI_Datatype type, MPI_Op op, const Config& config,
                          const CollectiveShape& shape, ByteBuffer& buffer, int iterations) {
  int rank = 0;
  MPI_Comm_rank(*comm, &rank);
  const std::size_t element = dtype_size(config.dtype);
  std::vector<int> slot_counts;
  for (const Slot& slot : shape.layout.slots) slot_counts.push_back(static_cast<int>(slot.count));
  const Slot& mine = shape.layout[rank];
  ByteBuffer scattered(static_cast<std::size_t>(mine.count) * element);
  ByteBuffer input = buffer;  // AllReduce works in place: every iteration starts from the inputs
  const auto once = [&](ByteBuffer& data) {
    switch (config.op) {
      case Op::allreduce:
        MPI_Allreduce(MPI_IN_PLACE, data.data(), static_cast<int>(shape.layout.elements_per_rank), type, op, *comm);
        break;
      case Op::allgather:
        MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data.data(), static_cast<int>(config.count), type, *comm);
        break;
      case Op::reducescatter:
        MPI_Reduce_scatter(data.data(), scattered.data(), slot_counts.data(), type, op, *comm);
        break;
      case Op::broadcast:
        MPI_Bcast(data.data(), static_cast<int>(config.count), type, config.root, *comm);
        break;
      case Op::alltoall:
        // In place, as ringviz's pairwise swaps: block j of rank r becomes rank j's block r.
        MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data.data(), static_cast<int>(config.count / config.ranks),
                     type, *comm);
        break;
      case Op::sendrecv: break;  // library_collectives() gives it no row
    }
  };
  once(buffer);
  if (config.op == Op::reducescatter)
    std::memcpy(buffer.data() + mine.offset * static_cast<std::int64_t>(element), scattered.data(), scattered.size());
  MPI_Barrier(*comm);
  const double started = MPI_Wtime();
  for (int iteration = 0; iteration < iterations; ++iteration) once(input);
  MPI_Barrier(*comm);
  return (MPI_Wtime() - started) / iterations;
}

const char* mpi_collective_name(Op op) {
  switch (op) {
    case Op::allreduce: return "MPI_Allreduce";
    case Op::allgather: return "MPI_Allgather";
    case Op::reducescatter: return "MPI_Reduce_scatter";
    case Op::broadcast: return "MPI_Bcast";
    case Op::alltoall: return "MPI_Alltoall";
    case Op::sendrecv: return "MPI_Sendrecv";
  }
  return "";
}

LibraryCollective mpi_row(const std::string& label, SharedComm comm, MPI_Datatype type, MPI_Op op) {
  return {label, [comm, type, op](const Config& config, const CollectiveShape& shape, ByteBuffer& buffer,
                                  int iterations) {
            return run_mpi_collective(comm, type, op, config, shape, buffer, iterations);
          }};
}

}  // namespace

void allow_forced_library_algorithms() { ::setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 0); }

std::vector<LibraryCollective> library_collectives(const std::string& transport, const Config& config,
                                                   std::vector<std::string>& notes) {
  std::vector<LibraryCollective> rows;
  if (transport != "mpi") return rows;  // the nccl transport adds its own rows here
  const std::string name = mpi_collective_name(config.op);
  if (config.op == Op::sendrecv) {
    notes.push_back(name + ": not measured: ringviz runs no " + std::string(op_name(config.op)) + " to compare it with");
    return rows;
  }
  const auto type = mpi_type(config.dtype);
  const auto op = !op_reduces(config.op) ? std::optional<MPI_Op>(MPI_OP_NULL) : mpi_op(config.reduce);
  if (!type || !op) {
    notes.push_back(name + ": not measured: MPI has no " +
                    (type ? "'" + std::string(reduce_op_name(config.reduce)) + "' reduction"
                          : std::string(dtype_name(config.dtype)) + " type"));
    return rows;
  }
  if (static_cast<double>(buffer_elements(config)) > INT_MAX) {
    notes.push_back(name + ": not measured: more elements than an MPI count holds");
    return rows;
  }
  rows.push_back(mpi_row(name + " (library default)", duplicate_world(), *type, *op));
  if (config.op == Op::alltoall) return rows;  // no ring to force: the tuned alltoall has none

  // OpenMPI's ring, forced for one duplicated communicator: the tuned component reads the
  // forced algorithm when a communicator is created, so the control variable is written,
  // read back, the communicator duplicated, and the variable restored.
  const ForcedRing ring = forced_ring(config.op);
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
    notes.push_back(name + " (forced ring): not measured: this MPI has no tool interface (MPI_T)");
    return rows;
  }
  const std::optional<int> dynamic = write_control_variable("coll_tuned_use_dynamic_rules", std::nullopt);
  const std::optional<int> before = write_control_variable(ring.variable, std::nullopt);
  const std::optional<int> forced = before ? write_control_variable(ring.variable, ring.ring) : std::nullopt;
  // Every rank must take part in the duplication, whatever its own variables said.
  int took = dynamic == 1 && forced == ring.ring ? 1 : 0;
  int all_took = 0;
  MPI_Allreduce(&took, &all_took, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all_took) {
    rows.push_back(mpi_row(name + " (forced ring: " + ring.variable + "=" + std::to_string(ring.ring) + ")",
                           duplicate_world(), *type, *op));
  } else {
    notes.push_back(name + " (forced ring): not measured: " +
                    (before ? std::string("coll_tuned_use_dynamic_rules is off (set before MPI_Init), or ") +
                                  ring.variable + " did not read back as " + std::to_string(ring.ring)
                            : std::string("this MPI is not OpenMPI with the tuned component")));
  }
  if (before && forced) write_control_variable(ring.variable, *before);
  return rows;
}

}  // namespace ringviz::capture
