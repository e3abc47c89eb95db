#include "app/capture/mpi/clock_alignment.h"

#include <limits>

#include <mpi.h>

#include "app/capture/mpi/mpi_world.h"
#include "app/capture/transport/rank_transport.h"

namespace ringviz::capture {

namespace {

constexpr int kPingTag = 7101;
constexpr int kPongTag = 7102;

ClockOffset measure_against(int peer) {
  ClockOffset best;
  double best_round_trip = std::numeric_limits<double>::infinity();
  for (int trip = 0; trip < kClockPingPongs; ++trip) {
    const double sent = capture_clock_seconds();
    MPI_Send(&sent, 1, MPI_DOUBLE, peer, kPingTag, MPI_COMM_WORLD);
    double stamped = 0;
    MPI_Recv(&stamped, 1, MPI_DOUBLE, peer, kPongTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const double returned = capture_clock_seconds();
    if (returned - sent < best_round_trip) {
      best_round_trip = returned - sent;
      best.offset_seconds = stamped - (sent + returned) / 2;
      best.error_seconds = best_round_trip / 2;
    }
  }
  return best;
}

void answer_pings() {
  for (int trip = 0; trip < kClockPingPongs; ++trip) {
    double sent = 0;
    MPI_Recv(&sent, 1, MPI_DOUBLE, 0, kPingTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const double stamped = capture_clock_seconds();
    MPI_Send(&stamped, 1, MPI_DOUBLE, 0, kPongTag, MPI_COMM_WORLD);
  }
}

}  // namespace

std::vector<ClockOffset> measure_clock_offsets() {
  const int rank = world_rank();
  if (rank != 0) {
    answer_pings();
    return {};
  }
  std::vector<ClockOffset> offsets(static_cast<std::size_t>(world_size()));
  for (int peer = 1; peer < world_size(); ++peer) offsets[static_cast<std::size_t>(peer)] = measure_against(peer);
  return offsets;
}

const char* clock_method_text() {
  return "offset of each rank's clock to rank 0's from the ping-pong with the smallest round trip of 64; "
         "error at most half that round trip";
}

}  // namespace ringviz::capture
