#pragma once
// The few MPI exchanges of a capture besides the rounds themselves (docs/architecture.md,
// "Capture"): moving whole buffers to and from rank 0, and agreeing before any data moves.
// Needs MPI initialised; nothing here names an MPI type.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/model/buffers.h"

namespace ringviz::capture {

int world_rank();
int world_size();

// Point-to-point on the world communicator, in pieces MPI's int counts can hold.
void send_bytes(const std::byte* data, std::int64_t size, int peer, int tag);
void receive_bytes(std::byte* data, std::int64_t size, int peer, int tag);

// Every rank's buffer to rank 0, into `gathered` (rank 0 only; sized here).
void gather_to_root(const ByteBuffer& mine, std::vector<ByteBuffer>& gathered);
// Rank 0's `all[r]` into rank r's `mine` (all is read on rank 0 only).
void scatter_from_root(const std::vector<ByteBuffer>& all, ByteBuffer& mine);

// Collective: when any rank passes a refusal, every rank gets the one of the lowest such rank
// (naming it when it is not rank 0); otherwise nothing.
std::optional<std::string> first_refusal(const std::optional<std::string>& mine);

// Collective: every rank's (flag, value) list compared with rank 0's; the first difference as
// "ranks were started with different options: --count is 8 on rank 0 but 9 on rank 1; ...".
std::optional<std::string> options_disagreement(const std::vector<std::pair<std::string, std::string>>& mine);

// Every rank's MPI_Get_processor_name, on rank 0 (others get an empty list).
std::vector<std::string> gather_host_names();

}  // namespace ringviz::capture
