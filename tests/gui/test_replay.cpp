// A replayed capture's numbers on screen: how long each round plays, whom the longest wait of a
// round waited for, the caption that says so, and the timeline's cursor. No GL.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

#include "app/gui/replay/host_colours.h"
#include "app/gui/replay/replay_panel.h"
#include "app/gui/replay/replay_timing.h"
#include "app/gui/replay/timeline_panel.h"
#include "app/gui/state/playback.h"
#include "app/gui/text/strings.h"
#include "core/algorithms/registry.h"
#include "tests/core/synthetic_capture.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;
using namespace ringviz::gui;

namespace {

Config straggler_config() {
  return ConfigBuilder().ranks(4).count(16);
}

RecordedRun straggler_run(const std::string& snapshot = "rounds") {
  return parse_recorded_run(synthetic_capture(straggler_config(), snapshot).dump(), "run.json");
}

}  // namespace

TEST_CASE("measured pacing gives each round its share of the run, the shortest still visible") {
  RecordedRun run = straggler_run();
  run.rounds[0].time_us = 10.0;  // far shorter than the others
  const std::vector<double> seconds = measured_round_seconds(run);
  REQUIRE(seconds.size() == 6);
  CHECK(seconds[0] == kMinMeasuredRoundSeconds);
  CHECK(seconds[1] == doctest::Approx(seconds[2]));
  CHECK(seconds[1] > kSecondsPerRound);
  run.rounds[3].time_us.reset();
  CHECK(measured_round_seconds(run).empty());
}

TEST_CASE("playback with round lengths moves through each round at its own pace") {
  Playback playback;
  playback.set_round_count(3);
  playback.set_round_seconds({1.0, 4.0, 0.5});
  playback.play();
  playback.advance(0.5);
  CHECK(playback.position() == doctest::Approx(0.5));
  playback.advance(2.5);  // 0.5 s finishes round 1, 2 s is half of round 2
  CHECK(playback.position() == doctest::Approx(1.5));
  CHECK(playback.seconds_until(3) == doctest::Approx(5.5));
  playback.advance(10);
  CHECK(playback.position() == 3);
  CHECK_FALSE(playback.playing());
}

TEST_CASE("the longest wait of a round is the straggler's receiver, waiting for the straggler") {
  const RecordedRun run = straggler_run();
  const Schedule schedule = make_schedule(run.config);
  for (int index = 0; index < schedule.round_count(); ++index) {
    const RoundWait wait = longest_wait(*run.capture, schedule.rounds[static_cast<std::size_t>(index)], index);
    CHECK(wait.rank == 3);
    CHECK(wait.waited_for == 2);
    CHECK(wait.wait_us == doctest::Approx(2100));
  }
}

TEST_CASE("the caption of a measured round names its time and the longest wait, in English and Chinese") {
  const RecordedRun run = straggler_run();
  const Schedule schedule = make_schedule(run.config);
  CHECK(measured_caption(run, schedule.rounds[2], 3, Language::en) == "round 3: 2.13 ms; GPU 3 waited 2.1 ms for GPU 2");
  CHECK(measured_caption(run, schedule.rounds[2], 3, Language::zh) == "第 3 轮：2.13 ms；GPU 3 等待 2.1 ms，等的是 GPU 2");
  CHECK(duration_text(950) == "950 \xC2\xB5s");
  CHECK(duration_text(2.5e6) == "2.5 s");
}

TEST_CASE("a plain trace's caption says nothing measured") {
  const RecordedRun run = parse_recorded_run(trace_document(straggler_config()), "t.json");
  CHECK(measured_caption(run, make_schedule(run.config).rounds[0], 1, Language::en).empty());
}

TEST_CASE("the timeline cursor runs through each round from its first start to its last end") {
  const RecordedRun run = straggler_run();
  const CaptureRecord& capture = *run.capture;
  CHECK(timeline_time_at(capture, 0) == 0);
  CHECK(timeline_time_at(capture, 1) == doctest::Approx(capture.rounds[1][0].start_us));
  CHECK(timeline_time_at(capture, 0.5) == doctest::Approx(capture.rounds[0][3].end_us / 2));
  CHECK(timeline_time_at(capture, 6) == doctest::Approx(capture.rounds[5][3].end_us));
}

TEST_CASE("ranks are grouped by host in order of first appearance, each host its own colour") {
  const HostGroups hosts = host_groups(*straggler_run().capture);
  CHECK(hosts.names == std::vector<std::string>{"node-a", "node-b"});
  CHECK(hosts.of_rank == std::vector<int>{0, 0, 1, 1});
  CHECK_FALSE(host_colour(0) == host_colour(1));
}

TEST_CASE("the replay summary names the file, transport, ranks and hosts") {
  ReplaySource replay;
  const std::string path = "/tmp/ringviz-replay-summary-test.json";
  {
    std::ofstream out(path);
    out << synthetic_capture(straggler_config(), "none").dump();
  }
  replay.open(path);
  CHECK(replay_summary(replay, Language::en) == "Replaying ringviz-replay-summary-test.json (mpi, 4 ranks on 2 hosts)");
  // Beside the measured time, what NCCL's model predicts for the same collective, as capture does.
  const std::string model = replay_model_line(replay, Language::en);
  CAPTURE(model);
  CHECK(model.rfind("Measured " + duration_text(captured_microseconds(*replay.capture())) + ". NCCL's model on nvswitch:4: ", 0) == 0);
  CHECK(model.find(" channel") != std::string::npos);
  CHECK(model.find("busbw") != std::string::npos);
  CHECK(replay_model_line(replay, Language::zh).rfind("实测 ", 0) == 0);
  CHECK(replay.pacing() == Pacing::measured);
  replay.set_pacing(Pacing::even);
  CHECK(replay.round_seconds().empty());
  std::remove(path.c_str());
}

TEST_CASE("a replay opens its file as a run and steps the run's one collective with the recorded config") {
  ReplaySource replay;
  const std::string path = "/tmp/ringviz-replay-run-test.json";
  {
    std::ofstream out(path);
    out << synthetic_capture(straggler_config(), "rounds").dump();
  }
  replay.open(path);
  REQUIRE(replay.active());
  CHECK(replay.run().world_size() == 4);
  REQUIRE(replay.run().groups.size() == 1);
  CHECK(replay.collective().members.size() == 4);
  CHECK(replay.config().ranks == 4);
  CHECK(replay.config().count == 16);
  REQUIRE(replay.recording());
  CHECK(replay.recording() == replay.run().ranks[2].collectives[0].recording.get());
  CHECK(replay.capture() == &*replay.recording()->capture);
  const std::vector<std::optional<double>> times = replay.recorded_round_us();
  REQUIRE(times.size() == 6);
  CHECK(times[2] == replay.recording()->rounds[2].time_us);
  CHECK(replay.measured_available());

  // A refused file leaves the open run as it was.
  {
    std::ofstream out(path);
    out << "{\"schema\": \"ringviz.trace/9\"}";
  }
  CHECK_THROWS_AS(replay.open(path), InputError);
  CHECK(replay.config().count == 16);
  CHECK(replay.recorded_round_us().size() == 6);
  replay.close();
  CHECK_FALSE(replay.recording());
  CHECK_FALSE(replay.capture());
  CHECK(replay.recorded_round_us().empty());
  std::remove(path.c_str());
}
