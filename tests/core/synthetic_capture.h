#pragma once
#include <algorithm>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/engine/backend.h"
#include "core/engine/session.h"
#include "core/trace/trace.h"
#include "core/trace/trace_json.h"

namespace ringviz {

// `trace --format json` output of `config`, as the CLI writes it.
inline std::string trace_document(const Config& config) {
  Session session(config, make_cpu_backend(1));
  std::ostringstream out;
  JsonTraceWriter writer(out);
  stream_trace(session, writer);
  return out.str();
}

// A capture in the contract's shape made from a trace, as scripts/synthetic-capture.py makes
// one: ranks on two hosts, every round entered together, rank `late` posting `delay_us` late, so
// its receivers wait; buffers kept as `snapshot` says.
inline nlohmann::ordered_json synthetic_capture(const Config& config, const std::string& snapshot,
                                                int late = 2, double delay_us = 2000) {
  using Json = nlohmann::ordered_json;
  Json document = Json::parse(trace_document(config));
  document["config"]["backend"] = "mpi";
  Json ranks = Json::array();
  for (int rank = 0; rank < config.ranks; ++rank)
    ranks.push_back({{"rank", rank}, {"host", rank < (config.ranks + 1) / 2 ? "node-a" : "node-b"},
                     {"device", nullptr}, {"clock_offset_us", rank * -1.5}, {"clock_error_us", rank ? 0.5 : 0}});
  double start = 0;
  const auto count = static_cast<std::size_t>(config.ranks);
  Json rounds = Json::array();
  Json& recorded = document["rounds"];
  for (std::size_t index = 0; index < recorded.size(); ++index) {
    Json& round = recorded[index];
    std::vector<double> posted(count), arrived(count);
    for (std::size_t rank = 0; rank < count; ++rank)
      posted[rank] = start + 1 + (static_cast<int>(rank) == late ? delay_us : 0);
    arrived = posted;
    for (const Json& transfer : round["transfers"]) {
      const auto dst = transfer["dst"].get<std::size_t>();
      arrived[dst] = std::max(arrived[dst], posted[transfer["src"].get<std::size_t>()] + 100);
    }
    Json spans = Json::array();
    double last = start;
    for (std::size_t rank = 0; rank < count; ++rank) {
      const double end = arrived[rank] + 30;
      last = std::max(last, end);
      spans.push_back({{"start_us", start}, {"posted_us", posted[rank]}, {"arrived_us", arrived[rank]},
                       {"end_us", end}, {"delay_us", static_cast<int>(rank) == late ? delay_us : 0},
                       {"bytes_sent", 0}, {"bytes_received", 0}});
    }
    rounds.push_back({{"round", index + 1}, {"ranks", spans}});
    Json timed;
    for (auto& [key, value] : round.items()) {
      if (key == "transfers") timed["time_us"] = last - start;
      const bool kept = snapshot == "rounds" || (snapshot == "ends" && index + 1 == recorded.size());
      if ((key == "buffers" || key == "contributors") && !kept) continue;
      timed[key] = value;
    }
    round = timed;
    start = last;
  }
  if (snapshot == "none") document.erase("initial");
  const Json delay = late >= 0 ? Json{{"rank", late}, {"us", delay_us}} : Json(nullptr);
  document["capture"] = {{"transport", "mpi"}, {"command", "ringviz capture --op allreduce"},
                         {"snapshot", snapshot}, {"clock", "synthetic"}, {"delay", delay},
                         {"ranks", ranks}, {"rounds", rounds}};
  return document;
}

}  // namespace ringviz
