#include "app/capture/mpi/mpi_world.h"

#include <algorithm>
#include <stdexcept>

#include <mpi.h>

namespace ringviz::capture {

namespace {

constexpr std::int64_t kMaxMessageBytes = std::int64_t{1} << 30;

void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI failed to ") + what);
}

// A text every rank contributes, all of them on every rank.
std::vector<std::string> allgather_texts(const std::string& mine) {
  const int size = world_size();
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size));
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD), "exchange lengths");
  std::vector<int> offsets(static_cast<std::size_t>(size));
  int total = 0;
  for (int r = 0; r < size; ++r) {
    offsets[static_cast<std::size_t>(r)] = total;
    total += lengths[static_cast<std::size_t>(r)];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  check(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
                       MPI_COMM_WORLD),
        "exchange texts");
  std::vector<std::string> texts;
  for (int r = 0; r < size; ++r)
    texts.push_back(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]),
                               static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)])));
  return texts;
}

}  // namespace

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

void send_bytes(const std::byte* data, std::int64_t size, int peer, int tag) {
  for (std::int64_t done = 0; done < size; done += kMaxMessageBytes)
    check(MPI_Send(data + done, static_cast<int>(std::min(kMaxMessageBytes, size - done)), MPI_BYTE, peer, tag,
                   MPI_COMM_WORLD),
          "send a buffer");
}

void receive_bytes(std::byte* data, std::int64_t size, int peer, int tag) {
  for (std::int64_t done = 0; done < size; done += kMaxMessageBytes)
    check(MPI_Recv(data + done, static_cast<int>(std::min(kMaxMessageBytes, size - done)), MPI_BYTE, peer, tag,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "receive a buffer");
}

constexpr int kGatherTag = 7001;
constexpr int kScatterTag = 7002;

void gather_to_root(const ByteBuffer& mine, std::vector<ByteBuffer>& gathered) {
  const int rank = world_rank();
  const auto size = static_cast<std::int64_t>(mine.size());
  if (rank != 0) {
    send_bytes(mine.data(), size, 0, kGatherTag);
    return;
  }
  gathered.resize(static_cast<std::size_t>(world_size()));
  gathered[0] = mine;
  for (int peer = 1; peer < world_size(); ++peer) {
    gathered[static_cast<std::size_t>(peer)].resize(mine.size());
    receive_bytes(gathered[static_cast<std::size_t>(peer)].data(), size, peer, kGatherTag);
  }
}

void scatter_from_root(const std::vector<ByteBuffer>& all, ByteBuffer& mine) {
  if (world_rank() == 0) {
    for (int peer = 1; peer < world_size(); ++peer) {
      const ByteBuffer& buffer = all[static_cast<std::size_t>(peer)];
      send_bytes(buffer.data(), static_cast<std::int64_t>(buffer.size()), peer, kScatterTag);
    }
    mine = all[0];
    return;
  }
  receive_bytes(mine.data(), static_cast<std::int64_t>(mine.size()), 0, kScatterTag);
}

std::optional<std::string> first_refusal(const std::optional<std::string>& mine) {
  const int size = world_size();
  int candidate = mine ? world_rank() : size;
  int first = size;
  check(MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "agree on a refusal");
  if (first == size) return std::nullopt;
  std::string text = mine && world_rank() == first ? *mine : std::string();
  int length = static_cast<int>(text.size());
  check(MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD), "share a refusal");
  text.resize(static_cast<std::size_t>(length));
  check(MPI_Bcast(text.data(), length, MPI_CHAR, first, MPI_COMM_WORLD), "share a refusal");
  return first == 0 ? text : "rank " + std::to_string(first) + ": " + text;
}

std::optional<std::string> options_disagreement(const std::vector<std::pair<std::string, std::string>>& mine) {
  // One line per option: the values never hold a newline (they are parsed values and paths).
  std::string text;
  for (const auto& [flag, value] : mine) text += flag + "\t" + value + "\n";
  const std::vector<std::string> texts = allgather_texts(text);
  for (std::size_t rank = 1; rank < texts.size(); ++rank) {
    if (texts[rank] == texts[0]) continue;
    const auto lines = [](const std::string& all) {
      std::vector<std::pair<std::string, std::string>> pairs;
      std::size_t begin = 0;
      for (std::size_t end; (end = all.find('\n', begin)) != std::string::npos; begin = end + 1) {
        const std::string line = all.substr(begin, end - begin);
        const std::size_t tab = line.find('\t');
        pairs.emplace_back(line.substr(0, tab), tab == std::string::npos ? "" : line.substr(tab + 1));
      }
      return pairs;
    };
    const auto first = lines(texts[0]);
    const auto other = lines(texts[rank]);
    for (std::size_t i = 0; i < std::min(first.size(), other.size()); ++i) {
      if (first[i] == other[i]) continue;
      const auto shown = [](const std::string& value) { return value.empty() ? std::string("(not given)") : value; };
      return "ranks were started with different options: " + first[i].first + " is " + shown(first[i].second) +
             " on rank 0 but " + shown(other[i].second) + " on rank " + std::to_string(rank) +
             "; start every rank with the same options";
    }
    return "ranks were started with different versions of ringviz-capture (rank 0 and rank " + std::to_string(rank) +
           " list different options); install the same build on every node";
  }
  return std::nullopt;
}

std::vector<std::string> gather_host_names() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  std::vector<std::string> names = allgather_texts(std::string(name, static_cast<std::size_t>(length)));
  if (world_rank() != 0) names.clear();
  return names;
}

}  // namespace ringviz::capture
