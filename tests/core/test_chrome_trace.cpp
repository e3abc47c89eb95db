// The Chrome trace export checked against the trace-event format: required fields per event
// kind, slices that never run backwards or overlap on a track, flows that pair up, and one
// send and one receive slice per transfer carrying its bytes and slot.
#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/engine/backend.h"
#include "core/trace/chrome_trace.h"
#include "core/engine/session.h"
#include "core/trace/trace.h"
#include "core/topology/topology.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;
using nlohmann::json;

namespace {

Trace record(Algorithm algorithm, Op op, int ranks, std::int64_t count) {
  const Config config = ConfigBuilder().algorithm(algorithm).op(op).ranks(ranks).count(count);
  Session session(config, make_cpu_backend(1));
  return record_trace(session);
}

// Throws nothing, reports every problem as a failed CHECK with the event in question.
void check_trace_event_format(const json& document) {
  REQUIRE(document.is_object());
  REQUIRE(document.contains("traceEvents"));
  REQUIRE(document["traceEvents"].is_array());
  std::map<std::pair<int, int>, double> track_end;  // (pid, tid) -> end of the last slice
  std::map<std::int64_t, int> flow_starts, flow_finishes;
  for (const json& event : document["traceEvents"]) {
    INFO(event.dump());
    REQUIRE(event.contains("ph"));
    REQUIRE(event["ph"].is_string());
    CHECK(event["name"].is_string());
    CHECK(event["pid"].is_number_integer());
    CHECK(event["tid"].is_number_integer());
    const std::string ph = event["ph"];
    if (ph == "M") {
      CHECK(event["args"].is_object());
      const std::string name = event["name"];
      if (name == "process_name" || name == "thread_name") CHECK(event["args"]["name"].is_string());
      continue;
    }
    REQUIRE(event["ts"].is_number());
    CHECK(event["ts"].get<double>() >= 0);
    if (ph == "X") {
      REQUIRE(event["dur"].is_number());
      CHECK(event["dur"].get<double>() >= 0);
      CHECK(event["cat"].is_string());
      const std::pair<int, int> track{event["pid"].get<int>(), event["tid"].get<int>()};
      const double ts = event["ts"], dur = event["dur"];
      // Monotonic and non-overlapping per track (a rounding error's slack).
      if (track_end.count(track)) CHECK(ts >= track_end[track] - 1e-6);
      track_end[track] = ts + dur;
    } else if (ph == "s" || ph == "f") {
      CHECK(event["cat"].is_string());
      REQUIRE(event["id"].is_number_integer());
      (ph == "s" ? flow_starts : flow_finishes)[event["id"].get<std::int64_t>()]++;
    } else {
      FAIL("unexpected event phase " << ph);
    }
  }
  CHECK(flow_starts.size() == flow_finishes.size());
  for (const auto& [id, starts] : flow_starts) {
    CHECK(starts == 1);
    CHECK(flow_finishes[id] == 1);
  }
}

std::size_t count_slices(const json& document, const std::string& category) {
  std::size_t count = 0;
  for (const json& event : document["traceEvents"])
    if (event["ph"] == "X" && event["cat"] == category) ++count;
  return count;
}

std::size_t transfer_count(const Trace& trace) {
  std::size_t count = 0;
  for (const Round& round : trace.schedule.rounds) count += round.transfers.size();
  return count;
}

}  // namespace

TEST_CASE("the chrome trace of every algorithm follows the trace-event format") {
  for (Algorithm algorithm : kAllAlgorithms)
    for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce}) {
      if (!algorithm_supports(algorithm, op)) continue;
      for (int n : {1, 2, 5, 8}) {
        CAPTURE(algorithm_name(algorithm));
        CAPTURE(op_name(op));
        CAPTURE(n);
        const Trace trace = record(algorithm, op, n, 11);
        const json document = chrome_trace_json(trace);
        check_trace_event_format(document);
        CHECK(count_slices(document, "round") == trace.schedule.rounds.size());
        CHECK(count_slices(document, "send") == transfer_count(trace));
        CHECK(count_slices(document, "receive") == transfer_count(trace));
      }
    }
}

TEST_CASE("every transfer slice carries its bytes and slot, and the output parses back") {
  const Trace trace = record(Algorithm::ring, Op::allreduce, 4, 8);
  std::ostringstream text;
  write_chrome_trace(text, trace);
  const json document = json::parse(text.str());
  std::size_t seen = 0;
  for (const json& event : document["traceEvents"]) {
    if (event["ph"] != "X" || event["cat"] != "send") continue;
    const json& args = event["args"];
    const Transfer& transfer =
        trace.schedule.rounds[args["round"].get<std::size_t>() - 1].transfers[seen % 4];
    CHECK(args["src"] == transfer.src);
    CHECK(args["dst"] == transfer.dst);
    CHECK(args["slot"] == transfer.slot);
    CHECK(args["bytes"] == 2 * 4);  // 8 f32 over 4 slots
    CHECK(event["pid"] == transfer.src + 1);
    ++seen;
  }
  CHECK(seen == 6 * 4);
  CHECK(document["otherData"]["timing"] == "modelled");
  CHECK(document["otherData"]["algorithm"] == "ring");
}

// docs/architecture.md, "Pipelined schedules": one send and one receive track per GPU and
// channel, each transfer on its channel's pair with its piece's bytes and its step.
TEST_CASE("a pipelined chrome trace has a track per GPU and channel, and each transfer its step") {
  const Config config = ConfigBuilder().ranks(3).count(12).channels(2).slices(2);
  Session session(config, make_cpu_backend(1));
  const Trace trace = record_trace(session);
  const json document = chrome_trace_json(trace);
  check_trace_event_format(document);
  std::map<std::pair<int, int>, std::string> tracks;
  for (const json& event : document["traceEvents"])
    if (event["name"] == "thread_name" && event["pid"] != 0) tracks[{event["pid"], event["tid"]}] = event["args"]["name"];
  CHECK(tracks.size() == 3 * 2 * 2);
  CHECK(tracks[{1, 3}] == "send, channel 1");
  CHECK(tracks[{3, 4}] == "receive, channel 1");
  std::size_t sends = 0;
  for (const json& event : document["traceEvents"]) {
    if (event["ph"] != "X" || event["cat"] != "send") continue;
    const json& args = event["args"];
    CHECK(event["tid"] == 1 + 2 * args["channel"].get<int>());
    CHECK(args["bytes"] == 4);  // 12 f32 in 3 slots of 4, each cut into 2 channels of 2 slices
    CHECK(args["step_round"].get<int>() + args["slice"].get<int>() == args["round"].get<int>());
    ++sends;
  }
  CHECK(sends == transfer_count(trace));
}

TEST_CASE("modelled times add up to the cost model's prediction") {
  const Trace trace = record(Algorithm::tree, Op::allreduce, 7, 700);
  ChromeTraceOptions options;
  options.link = find_link_preset("pcie4");
  const json document = chrome_trace_json(trace, options);
  const CostEstimate cost = estimate_cost(trace.config, options.link);
  CHECK(document["otherData"]["total_us"].get<double>() == doctest::Approx(cost.seconds * 1e6));
  CHECK(document["otherData"]["link"] == "pcie4");
}

TEST_CASE("on a named machine the trace's modelled total is compare's, NVLS's from NCCL's model, shared as the rounds share the link's") {
  for (const Algorithm algorithm : {Algorithm::nvls, Algorithm::ring}) {
    CAPTURE(algorithm_name(algorithm));
    const Trace trace = record(algorithm, Op::allreduce, 8, 65536);
    const Topology machine = topology_preset("nvswitch:8");
    const ChromeTraceOptions options = chrome_options_on(trace.config, machine);
    const json document = chrome_trace_json(trace, options);
    const double on_machine = estimate_cost(trace.config, machine, false).seconds;
    CHECK(document["otherData"]["total_us"].get<double>() == doctest::Approx(on_machine * 1e6));
    CHECK(document["otherData"]["topology"] == "nvswitch:8");
    // Each round keeps its share of the link model's total.
    const CostEstimate walked = estimate_cost(trace.config, trace.schedule, trace.layout, options.link);
    std::vector<double> rounds;
    for (const json& event : document["traceEvents"])
      if (event["ph"] == "X" && event["cat"] == "round") rounds.push_back(event["dur"].get<double>());
    REQUIRE(rounds.size() == walked.per_round.size());
    for (std::size_t i = 0; i < rounds.size(); ++i)
      CHECK(rounds[i] / (on_machine * 1e6) == doctest::Approx(walked.per_round[i].seconds / walked.seconds));
  }
  // NVLS's total is the in-switch model's, not the link walk's: the two differ here.
  const Trace nvls = record(Algorithm::nvls, Op::allreduce, 8, 65536);
  CHECK(chrome_trace_json(nvls)["otherData"]["total_us"].get<double>() !=
        doctest::Approx(chrome_trace_json(nvls, chrome_options_on(nvls.config, topology_preset("nvswitch:8")))
                            ["otherData"]["total_us"].get<double>()));
  // No machine: the link model alone, and no topology named.
  CHECK(chrome_trace_json(nvls)["otherData"]["topology"].is_null());
}

TEST_CASE("measured round times replace the model's when every round has one") {
  Trace trace = record(Algorithm::naive, Op::allreduce, 4, 40);
  for (TraceRound& round : trace.rounds) round.microseconds = 25.0;
  const json document = chrome_trace_json(trace);
  check_trace_event_format(document);
  CHECK(document["otherData"]["timing"] == "measured");
  CHECK(document["otherData"]["total_us"].get<double>() == doctest::Approx(50.0));
  for (const json& event : document["traceEvents"])
    if (event["ph"] == "X" && event["cat"] == "round") CHECK(event["dur"].get<double>() == doctest::Approx(25.0));

  SUBCASE("one unmeasured round falls back to the model for the whole trace") {
    trace.rounds.back().microseconds.reset();
    CHECK(chrome_trace_json(trace)["otherData"]["timing"] == "modelled");
  }
}

TEST_CASE("naive's hot spot shows as GPU 0's receive track filling the first round") {
  const Trace trace = record(Algorithm::naive, Op::allreduce, 4, 8);
  const json document = chrome_trace_json(trace);
  std::size_t into_gpu0 = 0;
  for (const json& event : document["traceEvents"])
    if (event["ph"] == "X" && event["cat"] == "receive" && event["pid"] == 1 && event["args"]["round"] == 1)
      ++into_gpu0;
  CHECK(into_gpu0 == 3 * 4);
  // The last of GPU 3's slots completes each sum: the receive slice shows the full label.
  bool completed = false;
  for (const json& event : document["traceEvents"])
    if (event["ph"] == "X" && event["cat"] == "receive" && event["args"].contains("completes_slot")) {
      CHECK(event["args"]["holds"].get<std::string>().find("d") != std::string::npos);
      completed = true;
    }
  CHECK(completed);
}
