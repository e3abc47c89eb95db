#pragma once
// What `ringviz capture --iters` compares our ring with: the communication library's own
// collective at the same size, in the same run (docs/architecture.md, "Capture"). Each source
// works on this rank's working buffer: it starts with the rank's input laid out as the
// in-process engine lays it (AllGather: in slot r) and ends with AllReduce the whole buffer
// reduced, AllGather every block, ReduceScatter slot r reduced on rank r.
#include <functional>
#include <string>
#include <vector>

#include "core/schedule/collective_shape.h"
#include "core/model/buffers.h"
#include "core/model/config.h"

namespace ringviz::capture {

struct LibraryCollective {
  std::string name;  // the row's label: "MPI_Allreduce (library default)"
  // Runs the collective once on `buffer` (checked afterwards), then `iterations` times back to
  // back between two barriers; returns this rank's seconds per iteration. Collective.
  std::function<double(const Config& config, const CollectiveShape& shape, ByteBuffer& buffer, int iterations)> run;
};

// The rows a transport offers for `config`; `notes` gets a line for each one it cannot offer
// (f16 in MPI, avg, a forced algorithm the library did not take). Collective: every rank must
// call it with the same arguments. The nccl transport's rows come from nccl_library_collectives().
std::vector<LibraryCollective> library_collectives(const std::string& transport, const Config& config,
                                                   std::vector<std::string>& notes);

// Before MPI_Init, for --iters: OpenMPI reads coll_tuned_use_dynamic_rules only at start-up,
// and without it a forced algorithm is ignored. Sets OMPI_MCA_coll_tuned_use_dynamic_rules=1
// unless the user set it; with no algorithm forced the tuned component then decides as it
// does by default, so the library's default row is unchanged.
void allow_forced_library_algorithms();

}  // namespace ringviz::capture
