// `ringviz --open`: a capture replays with its per-rank timeline under the ring, a plain trace
// plays evenly without one, and a document the reader refuses exits 2 naming its position.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "render_harness.h"

using namespace ringviz::gui_test;

namespace {

const std::string kStraggler = std::string(RINGVIZ_SOURCE_DIR) + "/assets/captures/synthetic-straggler-4gpus.json";

int pixels_near(const Frame& frame, const nlohmann::json& area, Rgb colour) {
  int found = 0;
  const int x0 = area["x"].get<int>(), y0 = area["y"].get<int>();
  for (int y = y0; y < y0 + area["h"].get<int>(); ++y)
    for (int x = x0; x < x0 + area["w"].get<int>(); ++x) found += close(frame.pixel(x, y), colour, 2);
  return found;
}

}  // namespace

TEST_CASE("a replayed capture shows a per-rank timeline under the ring, with the straggler's delay") {
  const Frame frame = render({"--size", "1600x900", "--open", kStraggler, "--round", "2.4"});
  const nlohmann::json& panels = frame.layout["panels"];
  CHECK(frame.layout["replay"]["file"] == kStraggler);
  CHECK(frame.layout["replay"]["pacing"] == "measured");
  CHECK(frame.layout["replay"]["mismatch_round"].is_null());
  CHECK(panels["timeline"]["h"].get<double>() > 40);
  CHECK(panels["timeline"]["y"].get<double>() == doctest::Approx(panels["view"]["y"].get<double>() + panels["view"]["h"].get<double>()));
  CHECK(pixels_near(frame, panels["timeline"], {222, 72, 72}) > 100);  // the --delay spans
  CHECK(pixels_near(frame, panels["view"], {222, 72, 72}) == 0);
  CHECK(frame.layout["config"]["ranks"] == 4);
}

TEST_CASE("--view chooses the first view of a replay as it does of a live run") {
  const Frame frame = render({"--size", "1600x900", "--open", kStraggler, "--view", "devices", "--round", "1"}, Capture::layout_only);
  CHECK(frame.layout["panels"]["devices"]["h"].get<double>() > 400);
}

TEST_CASE("a replayed plain trace plays evenly, without a timeline") {
  const std::filesystem::path trace = scratch_dir() / "plain-trace.json";
  const Run traced = run_ringviz({"trace", "--format", "json", "--op", "reducescatter", "--gpus", "3", "--count", "6", "--backend", "cpu"});
  REQUIRE(traced.exit_code == 0);
  std::ofstream(trace) << traced.output.substr(0, traced.output.rfind('}') + 1);
  const Frame frame = render({"--size", "1280x720", "--open", trace.string(), "--round", "1"}, Capture::layout_only);
  CHECK(frame.layout["replay"]["pacing"] == "even");
  CHECK(frame.layout["panels"]["timeline"]["h"] == 0);
  CHECK(frame.layout["config"]["op"] == "reducescatter");
}

TEST_CASE("a document the reader refuses exits 2 with its file position") {
  const std::filesystem::path bad = scratch_dir() / "bad-trace.json";
  std::ofstream(bad) << "{\"schema\": \"ringviz.trace/9\"}";
  const Run run = run_ringviz({"--headless", "--open", bad.string(), "--screenshot", (scratch_dir() / "x.png").string()});
  CHECK(run.exit_code == 2);
  CHECK(run.output == "ringviz: " + bad.string() + ":1:12: schema: expected \"ringviz.trace/1\", found \"ringviz.trace/9\"\n");
}
