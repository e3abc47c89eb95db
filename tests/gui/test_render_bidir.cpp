// The bidirectional ring rendered headless. Its two halves per slot are the schedule's own two
// lanes, not a pipeline: without --slices or --channels the views tell rounds, draw the ring
// both ways round, light each direction where a half travels, and label every cell half by
// half where its halves hold different contributors.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "render_harness.h"

using namespace ringviz::gui_test;

namespace {

bool drawn(const Frame& frame, const std::string& string) {
  for (const auto& text : frame.layout["texts"])
    if (text["text"] == string) return true;
  return false;
}

bool drawn_containing(const Frame& frame, const std::string& part) {
  for (const auto& text : frame.layout["texts"])
    if (text["text"].get<std::string>().find(part) != std::string::npos) return true;
  return false;
}

int arrows_going(const Frame& frame, const std::string& direction, bool busy_only) {
  int count = 0;
  for (const auto& arrow : frame.layout["arrows"])
    count += arrow["direction"] == direction && (!busy_only || arrow["busy"].get<bool>()) ? 1 : 0;
  return count;
}

// Lit arrows take the phase colour (orange in reduce-scatter); idle ones are grey.
bool orange(Rgb c) { return c.r > c.b + 80 && c.r > c.g; }
bool grey(Rgb c) { return std::abs(c.r - c.b) < 40 && std::abs(c.r - c.g) < 40 && c.r > 60; }

}  // namespace

TEST_CASE("bidir: a lock-step bidirectional ring tells rounds and halves, not a pipeline's waves") {
  const Frame frame = render({"--size", "1600x900", "--algo", "bidir-ring", "--gpus", "4", "--round", "2"}, Capture::layout_only);
  // No wave strip over the ring, and no pipeline words anywhere.
  CHECK(frame.layout["pipeline"].is_null());
  CHECK_FALSE(drawn_containing(frame, "Wave"));
  CHECK_FALSE(drawn_containing(frame, "wave"));
  CHECK_FALSE(drawn_containing(frame, "in flight"));
  CHECK_FALSE(drawn_containing(frame, "the pipeline"));
  CHECK(drawn(frame, "Round 2 of 6"));
  CHECK(drawn(frame, "After 2 of 6 rounds"));
  // The Transfers table: a Round column, and each row's slot with the half it carries.
  CHECK(drawn(frame, "Round"));
  CHECK(drawn_containing(frame, " clockwise half"));
  CHECK(drawn_containing(frame, " counter-clockwise half"));
  CHECK_FALSE(drawn_containing(frame, "r1s0c1"));
}

TEST_CASE("bidir: the Chinese frame names the halves by direction too") {
  const Frame frame = render({"--size", "1600x900", "--algo", "bidir-ring", "--gpus", "4", "--round", "2", "--lang", "zh"}, Capture::layout_only);
  CHECK(frame.layout["pipeline"].is_null());
  CHECK(frame.layout["missing_glyphs"].empty());
  CHECK(drawn_containing(frame, "顺时针半块"));
  CHECK(drawn_containing(frame, "逆时针半块"));
}

TEST_CASE("bidir: both directions of the ring are drawn, and both light up while halves travel") {
  const Frame moving = render({"--size", "1600x900", "--algo", "bidir-ring", "--gpus", "4", "--round", "1.5"});
  REQUIRE(moving.layout["arrows"].size() == 8u);
  CHECK(arrows_going(moving, "clockwise", true) == 4);
  CHECK(arrows_going(moving, "counter-clockwise", true) == 4);
  for (const auto& arrow : moving.layout["arrows"]) {
    const int src = arrow["src"], dst = arrow["dst"];
    CAPTURE(src);
    CAPTURE(dst);
    CHECK(dst == (arrow["direction"] == "clockwise" ? (src + 1) % 4 : (src + 3) % 4));
    const Rgb middle = moving.pixel_at(arrow["middle"][0].get<double>(), arrow["middle"][1].get<double>());
    INFO("middle of the arrow is " << to_string(middle));
    CHECK(orange(middle));
  }
  // At rest every arrow is drawn, none lit.
  const Frame resting = render({"--size", "1600x900", "--algo", "bidir-ring", "--gpus", "4", "--round", "2"});
  CHECK(arrows_going(resting, "counter-clockwise", false) == 4);
  CHECK(arrows_going(resting, "counter-clockwise", true) == 0);
  for (const auto& arrow : resting.layout["arrows"]) {
    const Rgb middle = resting.pixel_at(arrow["middle"][0].get<double>(), arrow["middle"][1].get<double>());
    INFO("middle of the arrow is " << to_string(middle));
    CHECK(grey(middle));
  }
  // The ring sends one way only: no counter-clockwise arrows.
  const Frame ring = render({"--size", "1600x900", "--gpus", "4", "--round", "1.5"}, Capture::layout_only);
  CHECK(ring.layout["arrows"].size() == 4u);
  CHECK(arrows_going(ring, "clockwise", true) == 4);
  // Eight GPUs: the same, round the larger ring.
  const Frame eight = render({"--size", "1600x900", "--algo", "bidir-ring", "--gpus", "8", "--round", "3.5"}, Capture::layout_only);
  CHECK(arrows_going(eight, "clockwise", true) == 8);
  CHECK(arrows_going(eight, "counter-clockwise", true) == 8);
}

TEST_CASE("bidir: a cell whose halves hold different contributors is labelled half by half") {
  // After round 1 (seed order) GPU 1's slot 0 holds GPU 0's clockwise half folded into its own,
  // and GPU 2's counter-clockwise half: the whole slot holds only b0.
  const Frame frame = render({"--size", "1600x900", "--algo", "bidir-ring", "--gpus", "4", "--round", "1"}, Capture::layout_only);
  const auto& cell = frame.cell(1, 0);
  CHECK(cell["contributors"] == nlohmann::json::array({1}));
  CHECK(cell["pieces"] == nlohmann::json::array({{0, 1}, {1, 2}}));
  CHECK(cell["label"] == "a0+b0 | b0+c0");
  CHECK(drawn(frame, "a0+b0 | b0+c0"));
  // Both halves drawn as bars, so the colours say the same as the label.
  CHECK(cell.contains("piece_rects"));
  // Where the halves agree the label is the slot's.
  CHECK(frame.cell(1, 1)["label"] == "b1");
  // AllGather: half of GPU 0's block has arrived at GPU 1, the other half not yet.
  const Frame gather =
      render({"--size", "1600x900", "--algo", "bidir-ring", "--op", "allgather", "--gpus", "4", "--round", "1"}, Capture::layout_only);
  CHECK(gather.cell(1, 0)["label"] == "A | -");
  CHECK(gather.cell(1, 2)["label"] == "- | C");
  // A finished run's halves agree: whole slots again.
  const Frame done = render({"--size", "1600x900", "--algo", "bidir-ring", "--gpus", "4", "--round", "6"}, Capture::layout_only);
  for (int rank = 0; rank < 4; ++rank)
    for (int slot = 0; slot < 4; ++slot) {
      const std::string s = std::to_string(slot);
      const std::string label = done.cell(rank, slot)["label"];
      CHECK((label == "a" + s + "+b" + s + "+c" + s + "+d" + s || label == "a" + s + "..d" + s));
    }
}

TEST_CASE("bidir: with --slices the bidirectional ring is pipelined, and its channels are named by direction") {
  const Frame frame = render({"--size", "1600x900", "--algo", "bidir-ring", "--gpus", "4", "--count", "32", "--slices",
                              "2", "--round", "2.5"}, Capture::layout_only);
  const nlohmann::json& pipeline = frame.layout["pipeline"];
  REQUIRE(pipeline.is_object());
  CHECK(pipeline["channels"] == 2);
  CHECK(drawn_containing(frame, "Wave 3 of 7"));
  CHECK(drawn(frame, "Wave"));
  CHECK(drawn_containing(frame, "c1 counter-clockwise"));
  CHECK(drawn_containing(frame, "c0 clockwise"));
  // Counter-clockwise slices ride the counter-clockwise arrows, which are lit.
  CHECK(arrows_going(frame, "counter-clockwise", true) == 4);
  for (const auto& marker : pipeline["markers"]) {
    const int src = marker["src"], dst = marker["dst"], channel = marker["channel"];
    CAPTURE(src);
    CHECK(dst == (channel == 0 ? (src + 1) % 4 : (src + 3) % 4));
  }
}
