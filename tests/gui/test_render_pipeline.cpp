// The pipelined ring view rendered headless: the wave's slices in flight as markers where the
// layout says (lanes per channel, a train per link), their stripes in the contributors'
// colours, and each cell's pieces as bands in the colours of the GPUs folded into them.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <tuple>

#include "render_harness.h"

using namespace ringviz::gui_test;

namespace {

double centre_x(const nlohmann::json& rect) { return rect["x"].get<double>() + rect["w"].get<double>() * 0.5; }
double centre_y(const nlohmann::json& rect) { return rect["y"].get<double>() + rect["h"].get<double>() * 0.5; }

}  // namespace

// The counts below give every piece an element (at least GPUs x channels x slices): a piece
// without elements moves 0 B and is drawn and counted as empty (see the last cases).
TEST_CASE("wave 3 of a 4-GPU ring with 4 slices on 2 channels has 3 slices in flight on each of the 8 lanes") {
  const Frame frame = render({"--size", "1600x900", "--gpus", "4", "--count", "32", "--slices", "4", "--channels", "2",
                              "--round", "2.3"});
  const nlohmann::json& pipeline = frame.layout["pipeline"];
  REQUIRE(pipeline.is_object());
  CHECK(pipeline["channels"] == 2);
  CHECK(pipeline["slices"] == 4);
  CHECK(pipeline["waves"] == 6 + 4 - 1);
  CHECK(pipeline["wave"] == 3);
  CHECK(pipeline["in_flight"] == 3);
  CHECK(pipeline["stage"] == "filling");
  CHECK(pipeline["channel_shown"] == "all");
  const nlohmann::json& markers = pipeline["markers"];
  REQUIRE(markers.size() == 4u * 2u * 3u);
  std::set<std::tuple<int, int, int>> seen;
  for (const auto& marker : markers) {
    const int src = marker["src"], slice = marker["slice"], channel = marker["channel"], round = marker["round"];
    CAPTURE(src);
    CAPTURE(channel);
    CAPTURE(slice);
    CHECK(marker["dst"] == (src + 1) % 4);
    CHECK(round + slice == 2);
    CHECK(marker["slot"] == ((src - round) % 4 + 4) % 4);
    CHECK(marker["kind"] == "reduce");
    seen.insert({src, channel, slice});
    // The stripes are the sender's piece as the wave found it: the cells' rest state.
    const int piece = channel * 4 + slice;
    const auto& contributors = frame.cell(src, marker["slot"].get<int>())["pieces"][piece];
    REQUIRE(contributors.size() >= 1);
    const auto& rect = marker["rect"];
    const double x = rect["x"].get<double>(), w = rect["w"].get<double>();
    // Left of the slice number, below the outline.
    const Rgb first = frame.pixel_at(x + std::min(3.0, w / (2.0 * static_cast<double>(contributors.size()))) ,
                                     rect["y"].get<double>() + 3);
    INFO("seen " << to_string(first) << ", GPU " << contributors[0].get<int>() << " is "
                 << to_string(frame.rank_colour(contributors[0].get<int>())));
    CHECK(close(first, frame.rank_colour(contributors[0].get<int>()), 12));
  }
  CHECK(seen.size() == markers.size());
}

TEST_CASE("after wave 2 of a 4-GPU ring with 4 slices, GPU 1's slot 0 holds GPU 0's part in its first two slices only") {
  const Frame frame = render({"--size", "1600x900", "--gpus", "4", "--count", "16", "--slices", "4", "--round", "2"});
  const nlohmann::json& pipeline = frame.layout["pipeline"];
  REQUIRE(pipeline.is_object());
  CHECK(pipeline["markers"].empty());  // at rest: nothing in flight
  const auto& cell = frame.cell(1, 0);
  // The whole slot holds only what every piece holds: GPU 1's own input.
  CHECK(cell["contributors"] == nlohmann::json::array({1}));
  CHECK(cell["pieces"] == nlohmann::json::array({{0, 1}, {0, 1}, {1}, {1}}));
  REQUIRE(cell.contains("piece_rects"));
  // Four bands per piece, GPU 0 on top: GPU 0's colour in pieces 0 and 1, not in 2 and 3.
  for (int piece = 0; piece < 4; ++piece) {
    const auto& rect = cell["piece_rects"][piece];
    const double band = rect["h"].get<double>() / 4;
    const Rgb top = frame.pixel_at(centre_x(rect), rect["y"].get<double>() + band * 0.5);
    const Rgb second = frame.pixel_at(centre_x(rect), rect["y"].get<double>() + band * 1.5);
    CAPTURE(piece);
    INFO("top band " << to_string(top) << ", second " << to_string(second));
    CHECK(close(top, frame.rank_colour(0), 2) == (piece < 2));
    CHECK(close(second, frame.rank_colour(1), 2));
  }
}

TEST_CASE("with 8 channels the ring view shows one channel at a time, channel 0 first, on the arrows") {
  const Frame frame = render({"--size", "1600x900", "--gpus", "4", "--count", "64", "--slices", "2", "--channels", "8",
                              "--round", "1.3"}, Capture::layout_only);
  const nlohmann::json& pipeline = frame.layout["pipeline"];
  REQUIRE(pipeline.is_object());
  CHECK(pipeline["channel_shown"] == 0);
  CHECK(pipeline["in_flight"] == 2);
  REQUIRE(pipeline["markers"].size() == 4u * 2u);
  for (const auto& marker : pipeline["markers"]) CHECK(marker["channel"] == 0);
}

TEST_CASE("lock-step frames dump no pipeline block and no pieces") {
  const Frame frame = render({"--size", "1280x720", "--gpus", "4", "--round", "1.3"}, Capture::layout_only);
  CHECK(frame.layout["pipeline"].is_null());
  CHECK_FALSE(frame.cell(0, 0).contains("pieces"));
}

TEST_CASE("the last wave of a 4-GPU AllReduce with 4 slices drains: one slice in flight, slice 3 of the last round") {
  const Frame frame = render({"--size", "1280x720", "--gpus", "4", "--count", "16", "--slices", "4", "--round", "8.3",
                              "--lang", "zh"}, Capture::layout_only);
  const nlohmann::json& pipeline = frame.layout["pipeline"];
  REQUIRE(pipeline.is_object());
  CHECK(pipeline["wave"] == 9);
  CHECK(pipeline["stage"] == "draining");
  CHECK(pipeline["in_flight"] == 1);
  REQUIRE(pipeline["markers"].size() == 4u);
  for (const auto& marker : pipeline["markers"]) {
    CHECK(marker["slice"] == 3);
    CHECK(marker["round"] == 5);
    CHECK(marker["kind"] == "copy");
    // The marker sits inside the view, not on a GPU box.
    const double x = centre_x(marker["rect"]), y = centre_y(marker["rect"]);
    for (const auto& gpu : frame.layout["gpus"]) {
      const auto& box = gpu["box"];
      const bool inside = x >= box["x"].get<double>() && x <= box["x"].get<double>() + box["w"].get<double>() &&
                          y >= box["y"].get<double>() && y <= box["y"].get<double>() + box["h"].get<double>();
      CHECK_FALSE(inside);
    }
  }
}

TEST_CASE("a cell is labelled from its pieces with elements: the copied sum is whole although empty pieces lag") {
  // count 8 on 4 GPUs with 2 channels x 4 slices: 2 elements a slot, so only slice 0 of each
  // channel holds one. After wave 4 slice 0 has copied the full sum into GPU 0's slot 0, while
  // its empty slices 1 to 3 still follow GPU 0's own input: the cell once read "a0" in GPU 0's
  // colour over the values of the full sum.
  const Frame frame = render({"--size", "1600x900", "--gpus", "4", "--slices", "4", "--channels", "2", "--round", "4"});
  const nlohmann::json& pipeline = frame.layout["pipeline"];
  REQUIRE(pipeline.is_object());
  CHECK(pipeline["pieces"] == 32);
  CHECK(pipeline["empty_pieces"] == 24);
  const auto& cell = frame.cell(0, 0);
  CHECK(cell["contributors"] == nlohmann::json::array({0, 1, 2, 3}));
  CHECK(cell["pieces"][0] == nlohmann::json::array({0, 1, 2, 3}));
  CHECK(cell["pieces"][4] == nlohmann::json::array({0, 1, 2, 3}));  // channel 1, slice 0
  CHECK(cell["pieces"][1] == nlohmann::json::array({0}));           // empty, lagging
  // An empty piece's bar is an outline: no GPU's colour inside it.
  REQUIRE(cell.contains("piece_rects"));
  const auto& empty = cell["piece_rects"][1];
  const Rgb inside = frame.pixel_at(centre_x(empty), centre_y(empty));
  INFO("inside the empty piece " << to_string(inside));
  for (int gpu = 0; gpu < 4; ++gpu) CHECK_FALSE(close(inside, frame.rank_colour(gpu), 12));
}

TEST_CASE("a wave that moves only empty pieces is idle, with nothing in flight") {
  const Frame frame = render({"--size", "1280x720", "--gpus", "4", "--slices", "4", "--channels", "2", "--round", "7.3"}, Capture::layout_only);
  const nlohmann::json& pipeline = frame.layout["pipeline"];
  REQUIRE(pipeline.is_object());
  CHECK(pipeline["wave"] == 8);
  CHECK(pipeline["in_flight"] == 0);
  CHECK(pipeline["stage"] == "idle");
}

TEST_CASE("more pipelined transfers than a schedule may hold are refused before any window, exit 2 on one line") {
  const Run run = run_ringviz({"--headless", "--gpus", "256", "--slices", "64", "--channels", "32", "--screenshot",
                               (scratch_dir() / "never.png").string()});
  CHECK(run.exit_code == 2);
  CHECK(run.output.find("ringviz: slices: 64 slices on 32 channels make") == 0);
  CHECK(run.output.find("choose fewer --slices, --channels or --gpus\n") == run.output.size() - 44);
  CHECK_FALSE(std::filesystem::exists(scratch_dir() / "never.png"));
}
